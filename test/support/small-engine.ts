/** A SQLite engine holding the committed small fixture catalogue (lexical-only), for unit suites. */
import path from 'node:path';
import { runIngest } from '../../ingest/pipeline.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine, type SqliteEngineOptions } from '../../src/engines/sqlite/engine.ts';
import { SMALL, tempDir } from './fixtures.ts';

/** Ingests the committed small fixture catalogue into `engine`, lexical-only (its lists too when `lists`). */
export async function ingestSmallFixture(engine: SearchEngine, dir: string, lists = false): Promise<void> {
  await runIngest({
    engine,
    embedder: null,
    parts: [SMALL.parts],
    manufacturersFile: SMALL.manufacturers,
    categoriesFile: SMALL.categories,
    ...(lists ? { listsFile: SMALL.lists } : {}),
    reportFile: path.join(dir, 'r.jsonl'),
  });
}

export async function smallSqliteEngine(options: Omit<SqliteEngineOptions, 'file'> = {}): Promise<SearchEngine> {
  const engine = createSqliteEngine({ ...options, file: path.join(tempDir(), 'small.db') });
  await engine.init();
  await ingestSmallFixture(engine, tempDir());
  return engine;
}
