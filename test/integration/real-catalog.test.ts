/**
 * The real catalogue from ../shared/data/catalog (29,399 full parts): ingest into SQLite, and into
 * OpenSearch when OPENSEARCH_URL is set; check counts, the report and the taxonomy. Skips with a
 * message when the shared data is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runIngest, type IngestSummary } from '../../ingest/pipeline.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { noteSkip, SHARED_CATALOG, sharedCatalogPresent, tempDir } from '../support/fixtures.ts';

const files = {
  parts: path.join(SHARED_CATALOG, 'parts.jsonl.gz'),
  manufacturers: path.join(SHARED_CATALOG, 'manufacturers.json'),
  categories: path.join(SHARED_CATALOG, 'categories.json'),
  lists: path.join(SHARED_CATALOG, 'lists.json'),
};
if (!sharedCatalogPresent) noteSkip('real catalogue ingest', `no data at ${SHARED_CATALOG}`);

const osPrefix = `pstest-real-${process.pid}-${Date.now()}`;
const engines: [string, () => Promise<SearchEngine>][] = [
  ['sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'real.db') })],
];
if (process.env.OPENSEARCH_URL) {
  engines.push([
    'opensearch',
    async () => {
      const { createOpenSearchEngine } = await import('../../src/engines/opensearch/engine.ts');
      const e = createOpenSearchEngine({ url: process.env.OPENSEARCH_URL!, prefix: osPrefix });
      await e.init();
      return e;
    },
  ]);
} else noteSkip('real catalogue ingest into OpenSearch', 'OPENSEARCH_URL is not set');

describe.skipIf(!sharedCatalogPresent).each(engines)('real catalogue into %s', (_name, make) => {
  let engine: SearchEngine;
  let summary: IngestSummary;
  const dir = tempDir();
  afterAll(async () => {
    await engine?.close();
    if (engine?.kind === 'opensearch') await fetch(`${process.env.OPENSEARCH_URL}/${osPrefix}-*`, { method: 'DELETE' });
  });

  it('indexes all 29,399 records: valid ones in, the rest reported', async () => {
    engine = await make();
    summary = await runIngest({
      engine,
      embedder: null,
      parts: [files.parts],
      manufacturersFile: files.manufacturers,
      categoriesFile: files.categories,
      listsFile: files.lists,
      reportFile: path.join(dir, 'report.jsonl'),
    });
    expect(summary.read).toBe(29_399);
    // 42 records have no manufacturer (required by FORMAT.md); 31 repeat an earlier identity.
    expect(summary.rejected).toBe(42);
    expect(summary.duplicates).toBe(31);
    expect(summary.indexed).toBe(29_399 - 42 - 31);
    expect((await engine.info()).parts).toBe(summary.indexed);
    const report = fs.readFileSync(path.join(dir, 'report.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(report.filter((r) => r.kind === 'rejected')).toHaveLength(42);
    expect(report.find((r) => r.kind === 'rejected').reason).toBe('manufacturer: must be string');
  });

  it('keeps the whole category tree with subtree counts adding up to the parts', async () => {
    const meta = (await engine.meta())!;
    const roots = meta.categories.filter((c) => c.parent === null);
    const leaves = meta.categories.filter((c) => c.children.length === 0);
    expect(roots.length).toBeGreaterThanOrEqual(119);
    expect(leaves.length).toBeGreaterThanOrEqual(1293);
    expect(roots.reduce((a, c) => a + c.part_count, 0)).toBe(summary.indexed);
    const caps = meta.categories.find((c) => c.slug === 'capacitors');
    const filtered = await engine.textSearch({ text: null, filters: { categories: ['capacitors'] }, limit: 1, offset: 0 });
    expect(filtered.total).toBe(caps!.part_count);
  });

  it('resolves the curated lists against the parts', async () => {
    const meta = (await engine.meta())!;
    const basic = meta.lists.find((l) => l.slug === 'jlcpcb-basic')!;
    expect(basic.member_count + basic.unmatched.length).toBeGreaterThanOrEqual(340);
    expect(basic.member_count).toBeGreaterThan(300);
    const inList = await engine.textSearch({ text: null, filters: { lists: [basic.list_id] }, limit: 1, offset: 0 });
    expect(inList.total).toBe(basic.member_count);
  });

  it('finds parts by MPN and text at this size', async () => {
    const exact = await engine.mpnLookup({ key: 'AD7151BRMZ', mode: 'exact', limit: 10 });
    expect(exact.length).toBe(1);
    const text = await engine.textSearch({ text: 'capacitive transducer', filters: {}, limit: 5, offset: 0 });
    expect(text.total).toBeGreaterThan(0);
  });
});
