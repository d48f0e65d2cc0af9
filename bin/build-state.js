// Which sources a build in dist/ was made from, so that a stale build is never run: scripts/build.mjs
// records the size and modification time of every file under src/ and ingest/ (and the tsconfig files)
// in dist/BUILD.json; bin/partsearch.js compares them with the checkout before running dist/.
// Plain JavaScript without dependencies: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['src', 'ingest'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];
export const BUILD_FILE = 'BUILD.json';

/** `relative path -> "mtimeMs:size"` of every compiled input in the checkout at `root`. */
export function sourceSnapshot(root) {
  const files = {};
  const note = (rel) => {
    const st = fs.statSync(path.join(root, rel), { throwIfNoEntry: false });
    if (st?.isFile()) files[rel] = `${Math.round(st.mtimeMs)}:${st.size}`;
  };
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) note(child);
    }
  };
  for (const d of SOURCE_DIRS) if (fs.existsSync(path.join(root, d))) walk(d);
  for (const f of SOURCE_FILES) note(f);
  return files;
}

/** Whether `root` is a development checkout (TypeScript sources beside the build) rather than an installed build. */
export function isSourceCheckout(root) {
  return fs.existsSync(path.join(root, 'src', 'cli', 'main.ts'));
}

/**
 * The state of dist/ against the sources: `fresh`, `missing` (never built), or `stale` with the first
 * source that differs (`changed`: added, edited or removed since the build).
 */
export function buildState(root) {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(path.join(root, 'dist', BUILD_FILE), 'utf8')).sources;
  } catch {
    return { state: 'missing' };
  }
  if (!isSourceCheckout(root)) return { state: 'fresh' };
  const now = sourceSnapshot(root);
  for (const [f, v] of Object.entries(now)) if (recorded[f] !== v) return { state: 'stale', changed: f };
  for (const f of Object.keys(recorded)) if (!(f in now)) return { state: 'stale', changed: f };
  return { state: 'fresh' };
}
