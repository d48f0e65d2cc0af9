/** Paths of the committed small fixture catalogue and of the real data in ../shared (when present). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = import.meta.dirname;
export const FIXTURES = path.resolve(here, '..', 'fixtures');
export const SMALL = {
  parts: path.join(FIXTURES, 'parts-small.jsonl'),
  manufacturers: path.join(FIXTURES, 'manufacturers-small.json'),
  categories: path.join(FIXTURES, 'categories-small.json'),
  lists: path.join(FIXTURES, 'lists-small.json'),
};

export const SHARED_CATALOG = path.resolve(here, '..', '..', '..', 'shared', 'data', 'catalog');
export const sharedCatalogPresent = fs.existsSync(path.join(SHARED_CATALOG, 'parts.jsonl.gz'));
export function noteSkip(what: string, why: string): void {
  console.warn(`[skip] ${what}: ${why}`);
}

/** Temporary directories made since the last removeTempDirs(). */
const made: string[] = [];

/** Removes the temporary directories made so far: at the end of every test file (cleanup.ts). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A new directory in the system temp dir, removed when the test file that made it ends. */
export function tempDir(prefix = 'partsearch-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
