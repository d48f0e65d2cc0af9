/**
 * The `partsearch` launcher (bin/partsearch.js, bin/build-state.js): it runs the compiled build in dist/
 * only when dist/ was built from the checkout's sources as they are, and otherwise runs the sources
 * through tsx and says so. Exercised on a small project laid out like this one, with real processes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_FILE, buildState, sourceSnapshot } from '../../bin/build-state.js';
import { tempDir } from '../support/fixtures.ts';

const repo = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A project with a CLI whose sources and build say where they run from; dist/ built from the sources as they are. */
function project(): string {
  const root = tempDir('partsearch-launch-');
  dirs.push(root);
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('package.json', '{"type": "module"}\n');
  for (const f of ['partsearch.js', 'build-state.js']) write(`bin/${f}`, fs.readFileSync(path.join(repo, 'bin', f), 'utf8'));
  write('src/cli/main.ts', "export async function main(argv: string[]): Promise<number> { console.log('sources', argv.join(' ')); return 3; }\n");
  write('ingest/x.ts', 'export const x = 1;\n');
  write('tsconfig.json', '{}\n');
  write('dist/src/cli/main.js', "export async function main(argv) { console.log('dist', argv.join(' ')); return 4; }\n");
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'));
  write(`dist/${BUILD_FILE}`, JSON.stringify({ sources: sourceSnapshot(root) }));
  return root;
}

function run(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'partsearch.js'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

describe('bin/partsearch.js', () => {
  it('runs dist/ when it was built from the sources as they are, and says nothing about it', () => {
    const root = project();
    expect(buildState(root)).toEqual({ state: 'fresh' });
    expect(run(root, 'accounts', 'list')).toEqual({ status: 4, stdout: 'dist accounts list', stderr: '' });
  });

  it('runs the sources through tsx, and says why, once a source was edited, added or removed since the build', () => {
    const root = project();
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, 'ingest/x.ts'), later, later);
    expect(buildState(root)).toEqual({ state: 'stale', changed: 'ingest/x.ts' });
    const r = run(root, '--help');
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('sources --help');
    expect(r.stderr).toBe('partsearch: dist/ is older than ingest/x.ts: running the TypeScript sources (`npm run build` makes commands start faster)');

    fs.writeFileSync(path.join(root, 'src/cli/new.ts'), '');
    expect(buildState(root)).toMatchObject({ state: 'stale' });
    const fresh = project();
    fs.rmSync(path.join(fresh, 'ingest/x.ts'));
    expect(buildState(fresh)).toEqual({ state: 'stale', changed: 'ingest/x.ts' });
  });

  it('runs the sources when nothing was built, and refuses to run without a build outside a source checkout', () => {
    const root = project();
    fs.rmSync(path.join(root, 'dist'), { recursive: true });
    const r = run(root);
    expect([r.status, r.stdout]).toEqual([3, 'sources']);
    expect(r.stderr).toMatch(/^partsearch: dist\/ holds no build: running the TypeScript sources/);

    const installed = project();
    fs.rmSync(path.join(installed, 'src'), { recursive: true });
    expect(run(installed, 'x')).toEqual({ status: 4, stdout: 'dist x', stderr: '' });
    fs.rmSync(path.join(installed, 'dist'), { recursive: true });
    const none = run(installed);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^partsearch: this installation has no build in .*dist$/);
  });

  it('finds every worker thread of the sources through workerEntry, so that the build starts its compiled entry', () => {
    const offending: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts'))
          fs.readFileSync(p, 'utf8')
            .split('\n')
            .forEach((l, i) => {
              if (/new Worker\(/.test(l) && !/workerEntry\(/.test(l)) offending.push(`${path.relative(repo, p)}:${i + 1}`);
            });
      }
    };
    walk(path.join(repo, 'src'));
    walk(path.join(repo, 'ingest'));
    expect(offending).toEqual([]);
  });
});
