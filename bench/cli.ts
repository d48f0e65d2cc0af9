/**
 * Start-up of the CLI's commands that do not touch the index: wall time of the whole process, this
 * checkout (the compiled build in dist/) against a base revision run as it shipped (e.g. TypeScript
 * through tsx), in one run, alternating base and current so that a change of the machine's load hits
 * both alike. Reports p50 (and min, max) per command and the ratio of the p50s.
 *
 *   npx tsx bench/cli.ts [--base REV] [--rounds N] [--out bench/results/cli.json]
 *
 * The base revision is exported with `git archive` to a temporary folder that shares this checkout's
 * node_modules. Both run against one temporary data dir holding one account and key.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildState } from '../bin/build-state.js';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { base: { type: 'string', default: 'main' }, rounds: { type: 'string', default: '15' }, out: { type: 'string', default: 'bench/results/cli.json' } },
});
const rounds = Number(values.rounds);
if (buildState(root).state !== 'fresh') throw new Error('dist/ is not a build of this checkout: run `npm run build` first');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'partsearch-bench-cli-'));
const baseDir = path.join(tmp, 'base');
fs.mkdirSync(baseDir);
const rev = execFileSync('git', ['rev-parse', '--short', values.base!], { cwd: root, encoding: 'utf8' }).trim();
execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C ${JSON.stringify(baseDir)}`], { cwd: root });
fs.symlinkSync(path.join(root, 'node_modules'), path.join(baseDir, 'node_modules'));
const dataDir = path.join(tmp, 'data');
const env = { ...process.env, PARTSEARCH_DATA_DIR: dataDir, EMBEDDING_MODEL_DIR: 'none', REDIS_URL: '', SEARCH_ENGINE: 'sqlite' };

const cli = (dir: string, args: string[]) => spawnSync(process.execPath, [path.join(dir, 'bin', 'partsearch.js'), ...args], { env, encoding: 'utf8' });
const setup = cli(root, ['accounts', 'create', '--name', 'bench', '--subscription', '--key']);
if (setup.status !== 0) throw new Error(setup.stderr);

const COMMANDS: string[][] = [
  ['--help'],
  ['accounts', 'list'],
  ['keys', 'list'],
  ['lists', 'show'],
  ['keys', '--help'],
  ['serve', '--help'],
  ['ingest', '--help'],
];

function time(dir: string, args: string[]): number {
  const t = performance.now();
  const r = cli(dir, args);
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${dir} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return ms;
}

const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const rows: { command: string; base_ms: number[]; current_ms: number[] }[] = [];
try {
  for (const args of COMMANDS) {
    time(baseDir, args); // warm-up: tsx's cache, the file system cache
    time(root, args);
    const base: number[] = [];
    const current: number[] = [];
    for (let i = 0; i < rounds; i++) {
      base.push(time(baseDir, args));
      current.push(time(root, args));
    }
    rows.push({ command: `partsearch ${args.join(' ')}`, base_ms: base, current_ms: current });
    const f = (x: number) => `${Math.round(x)}`;
    process.stdout.write(
      `${`partsearch ${args.join(' ')}`.padEnd(26)} base p50 ${f(p50(base)).padStart(5)} ms (${f(Math.min(...base))}-${f(Math.max(...base))})` +
        `   current p50 ${f(p50(current)).padStart(5)} ms (${f(Math.min(...current))}-${f(Math.max(...current))})   ratio ${(p50(current) / p50(base)).toFixed(2)}\n`,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
const result = {
  measured_at: new Date().toISOString(),
  base: rev,
  current: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim(),
  rounds,
  loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
  cpus: os.cpus().length,
  commands: rows.map((r) => ({
    ...r,
    base_p50_ms: Math.round(p50(r.base_ms)),
    current_p50_ms: Math.round(p50(r.current_ms)),
    ratio: Number((p50(r.current_ms) / p50(r.base_ms)).toFixed(3)),
  })),
};
fs.writeFileSync(path.resolve(root, values.out!), `${JSON.stringify(result, null, 1)}\n`);
process.stdout.write(`written to ${values.out}\n`);
