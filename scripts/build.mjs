#!/usr/bin/env node
// Compiles src/ and ingest/ to dist/ with tsc (tsconfig.build.json: `.ts` imports become `.js`), copies
// the other files there (assets the code reads beside itself), and records the sources it was built
// from (dist/BUILD.json), which bin/partsearch.js checks before it runs dist/. The new build is written beside the old one and swapped in when complete, so a failed
// build leaves the previous one (still known to be stale) in place.
//   node scripts/build.mjs              build
//   node scripts/build.mjs --if-stale   build only when dist/ is missing or stale (npm's prepare)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_FILE, buildState, sourceSnapshot } from '../bin/build-state.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifStale = process.argv.includes('--if-stale');
const say = (m) => process.stderr.write(`build: ${m}\n`);

if (ifStale && buildState(root).state === 'fresh') {
  say('dist/ is up to date');
  process.exit(0);
}
let tsc;
try {
  tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  say('TypeScript is not installed (a devDependency): dist/ was not built');
  process.exit(ifStale ? 0 : 1);
}
const next = path.join(root, 'dist.next');
const old = path.join(root, 'dist.old');
fs.rmSync(next, { recursive: true, force: true });
// The snapshot is taken before compiling: a file edited meanwhile makes the build stale, as it is.
const sources = sourceSnapshot(root);
const started = Date.now();
say('compiling src/ and ingest/ to dist/ (tsc)');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', next], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  fs.rmSync(next, { recursive: true, force: true });
  say('tsc failed: dist/ was not updated');
  process.exit(r.status ?? 1);
}
// Files the code reads beside itself (e.g. the GraphQL explorer's client script) go along; the .mjs files
// are the sources' worker shims, which register tsx.
for (const rel of Object.keys(sources)) {
  if (/\.(ts|mjs)$/.test(rel) || !/^(src|ingest)\//.test(rel)) continue;
  fs.mkdirSync(path.dirname(path.join(next, rel)), { recursive: true });
  fs.copyFileSync(path.join(root, rel), path.join(next, rel));
}
fs.writeFileSync(path.join(next, BUILD_FILE), `${JSON.stringify({ built_at: new Date().toISOString(), sources }, null, 1)}\n`);
fs.rmSync(old, { recursive: true, force: true });
if (fs.existsSync(path.join(root, 'dist'))) fs.renameSync(path.join(root, 'dist'), old);
fs.renameSync(next, path.join(root, 'dist'));
fs.rmSync(old, { recursive: true, force: true });
say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
