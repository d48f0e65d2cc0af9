/** Test catalogues into engines: any catalogue's files (ingestCatalog), the committed small fixture (SQLite, lexical-only). */
import fs from 'node:fs';
import path from 'node:path';
import { runIngest, type IngestSummary } from '../../ingest/pipeline.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import { createCatalogProvider, type CatalogView } from '../../src/catalog/view.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine, type SqliteEngineOptions } from '../../src/engines/sqlite/engine.ts';
import { SMALL, tempDir } from './fixtures.ts';

/** The files of a dump-format catalogue (paths); the parts file is the only one required. */
export interface CatalogFiles {
  parts: string;
  manufacturers?: string;
  categories?: string;
  lists?: string;
}

/** The files writeSampleCatalogue wrote, without the lists unless `lists`. */
export function sampleFiles(f: { partsFile: string; manufacturersFile: string; categoriesFile: string; listsFile: string }, lists = false): CatalogFiles {
  return { parts: f.partsFile, manufacturers: f.manufacturersFile, categories: f.categoriesFile, ...(lists ? { lists: f.listsFile } : {}) };
}

/** Ingests a catalogue into `engine` (lexical-only unless an embedder is given), the report in a temp folder. */
export async function ingestCatalog(engine: SearchEngine, files: CatalogFiles, embedder: Embedder | null = null): Promise<IngestSummary> {
  return runIngest({
    engine,
    embedder,
    parts: [files.parts],
    ...(files.manufacturers ? { manufacturersFile: files.manufacturers } : {}),
    ...(files.categories ? { categoriesFile: files.categories } : {}),
    ...(files.lists ? { listsFile: files.lists } : {}),
    reportFile: path.join(tempDir(), 'r.jsonl'),
  });
}

/** Ingests the committed small fixture catalogue into `engine`, lexical-only (its lists too when `lists`). */
export async function ingestSmallFixture(engine: SearchEngine, lists = false): Promise<void> {
  const { parts, manufacturers, categories } = SMALL;
  await ingestCatalog(engine, { parts, manufacturers, categories, ...(lists ? { lists: SMALL.lists } : {}) });
}

export async function smallSqliteEngine(options: Omit<SqliteEngineOptions, 'file'> = {}): Promise<SearchEngine> {
  const engine = createSqliteEngine({ ...options, file: path.join(tempDir(), 'small.db') });
  await engine.init();
  await ingestSmallFixture(engine);
  return engine;
}

/**
 * A SQLite engine over the given dump records (and category tree), lexical-only, with the live
 * catalogue's view (category matcher, spec names) as agentic search gets it.
 */
export async function sqliteCatalog(parts: readonly object[], categories?: readonly object[]): Promise<{ engine: SearchEngine; view: CatalogView }> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'parts.jsonl'), parts.map((p) => JSON.stringify(p)).join('\n') + '\n');
  if (categories) fs.writeFileSync(path.join(dir, 'categories.json'), JSON.stringify(categories));
  const engine = createSqliteEngine({ file: path.join(dir, 'p.db') });
  await engine.init();
  await ingestCatalog(engine, { parts: path.join(dir, 'parts.jsonl'), ...(categories ? { categories: path.join(dir, 'categories.json') } : {}) });
  return { engine, view: (await createCatalogProvider(engine).get())! };
}
