#!/usr/bin/env node
// The partsearch CLI. It runs the compiled JavaScript in dist/ (`npm run build`; `npm install` builds it).
// In a development checkout whose dist/ is missing or older than the sources, it runs the TypeScript
// sources through tsx (a devDependency) and says so on stderr: a stale build is never run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState, isSourceCheckout } from './build-state.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = buildState(root);
let main;
if (build.state === 'fresh') {
  ({ main } = await import('../dist/src/cli/main.js'));
} else if (isSourceCheckout(root)) {
  const why = build.state === 'missing' ? 'dist/ holds no build' : `dist/ is older than ${build.changed}`;
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(`partsearch: ${why}, and tsx is not installed to run the sources: run \`npm run build\`\n`);
    process.exit(1);
  }
  process.stderr.write(`partsearch: ${why}: running the TypeScript sources (\`npm run build\` makes commands start faster)\n`);
  register();
  ({ main } = await import('../src/cli/main.ts'));
} else {
  process.stderr.write(`partsearch: this installation has no build in ${path.join(root, 'dist')}\n`);
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2));
