/**
 * Where this installation lives, the same whether the TypeScript sources run (a development checkout)
 * or the compiled JavaScript in dist/ (npm start, the Docker image, an installed package): files that
 * ship beside the code (index-mappings/, models/, test/relevance/) are found from the project root,
 * never from a module's own folder, whose depth differs between the two.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The nearest folder above this module that holds package.json. */
export const PROJECT_ROOT: string = (() => {
  for (let dir = import.meta.dirname; ;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(import.meta.dirname, '..', '..');
    dir = up;
  }
})();

/**
 * The entry of a worker thread that lives beside `from` (a module's import.meta.url): compiled, the
 * worker's own `<name>.js`; from the sources, `<name>.mjs`, which registers tsx in the worker before
 * importing `<name>.ts` (a loader registered in the main thread does not reach workers).
 */
export function workerEntry(name: string, from: string): URL {
  return new URL(from.endsWith('.ts') ? `./${name}.mjs` : `./${name}.js`, from);
}
