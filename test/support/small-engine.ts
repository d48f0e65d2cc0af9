/** A SQLite engine holding the committed small fixture catalogue (lexical-only), for unit suites. */
import path from 'node:path';
import { runIngest } from '../../ingest/pipeline.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine, type SqliteEngineOptions } from '../../src/engines/sqlite/engine.ts';
import { SMALL, tempDir } from './fixtures.ts';

export async function smallSqliteEngine(options: Omit<SqliteEngineOptions, 'file'> = {}): Promise<SearchEngine> {
  const engine = createSqliteEngine({ ...options, file: path.join(tempDir(), 'small.db') });
  await engine.init();
  await runIngest({
    engine,
    embedder: null,
    parts: [SMALL.parts],
    manufacturersFile: SMALL.manufacturers,
    categoriesFile: SMALL.categories,
    reportFile: path.join(tempDir(), 'r.jsonl'),
  });
  return engine;
}
