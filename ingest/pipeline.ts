/**
 * The ingest pipeline: dump files -> validated, normalised, embedded parts -> a new index version.
 *
 *   read lines (plain or gzip, streamed) -> JSON.parse -> depth check -> ajv (dump schema) -> normalise
 *     -> batch -> embed (when a model is loaded; kept vectors reused: embed-stage.ts) -> engine loader
 *     (retries inside) -> finish
 *
 * Guarantees: memory stays flat with file size (a few batches in flight); every record that
 * does not go in as written is in the report; the live version changes only when the new one holds
 * exactly the parts that were accepted (count check), and the previous version is kept for
 * rollback. Running the same dump twice yields the same index.
 */
import fs from 'node:fs';
import { CategoryTree } from '../src/catalog/categories.ts';
import { dumpPartSchema } from '../src/catalog/dump-schema.ts';
import { IdMap, IdSet } from '../src/catalog/id-set.ts';
import { ManufacturerRegistry } from '../src/catalog/manufacturers.ts';
import { INDEX_FEATURES, type ApprovedListData, type CatalogMeta } from '../src/catalog/meta.ts';
import { embeddingText, legacyIds, PartNormaliser, partId } from '../src/catalog/normalise.ts';
import type { DumpPart, IndexedPart, PartRecord } from '../src/catalog/part.ts';
import { PART_STATUSES, readStatus } from '../src/catalog/status.ts';
import { embedderIdentity } from '../src/embeddings/key.ts';
import type { Embedder } from '../src/embeddings/port.ts';
import type { VectorCache } from '../src/embeddings/vector-cache.ts';
import type { CatalogWriter, EngineLoader } from '../src/engines/port.ts';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../src/util/json-depth.ts';
import { ajv, describeErrors, fastAjv } from '../src/validation.ts';
import { IngestInputError, listIdFor, memberPartId, readCategoriesFile, readListsFile, readManufacturersFile, type ListsFileEntry } from './catalog-files.ts';
import { createEmbedStage } from '../src/embeddings/embed-stage.ts';
import { createProgress, type Progress } from './progress.ts';
import { openLines } from './read-lines.ts';
import { IngestReport } from './report.ts';

export interface IngestOptions {
  engine: CatalogWriter;
  /** null: lexical-only. */
  embedder: Embedder | null;
  /** Vectors kept across ingests (reused by key, new ones added); null: every part is embedded. */
  vectorCache?: VectorCache | null;
  /**
   * 'complete' (default): every part has its vector before the version goes live. 'background': parts
   * without a kept vector go in without one, and the version goes live lexical-only (meta
   * `embedding.pending`) for a vector fill (src/embeddings/vector-fill.ts) to complete.
   */
  embeddings?: 'complete' | 'background';
  parts: string[];
  manufacturersFile?: string;
  categoriesFile?: string;
  listsFile?: string;
  reportFile: string;
  batchSize?: number;
  progress?: Progress;
  /** Aborting stops the ingest between records: the new version is dropped, the live one stays (IngestInterrupted). */
  signal?: AbortSignal;
}

export class IngestInterrupted extends Error {
  override name = 'IngestInterrupted';
}

export interface IngestSummary {
  read: number;
  /** Parts in the new live version. */
  indexed: number;
  rejected: number;
  duplicates: number;
  failed: number;
  unmatchedListMembers: number;
  /** Records indexed with a status read as unknown or a category the categories file lacks (report kind `amended`). */
  amended: number;
  seconds: number;
  partsPerSecond: number;
  /** Seconds spent inside the embedding model (0 when lexical-only). */
  embedSeconds: number;
  /** Parts embedded by the model, parts whose kept vector was reused, parts left for the vector fill (background). */
  vectors: { embedded: number; reused: number; pending: number };
  /** Seconds until every record was read and written (the engine may still be indexing). */
  streamSeconds: number;
  /**
   * Seconds after the last write: the engine's end-of-load index builds, snapshot, count check and
   * swap.
   */
  finishSeconds: number;
  embedded: boolean;
  version: string;
  reportFile: string | null;
}

// The fast validator stops at the first error; a failing record is validated again for every reason.
const checkPart = fastAjv.compile(dumpPartSchema);
const validatePart = ajv.compile(dumpPartSchema);

/** A spec value that is only a number or a range of numbers ("2", "-1.5", "1~4"). */
const BARE_NUMBERS = /^\s*[-+]?\d+(?:[.,]\d+)?(?:\s*[~\u2013-]\s*[-+]?\d+(?:[.,]\d+)?)?\s*$/;

export async function runIngest(o: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  // Lexical-only: smaller batches, more of them in flight. The load worker indexes the FTS tables
  // between writes, and the ingest thread keeps parsing meanwhile; small batches die young (less
  // garbage-collector work) and keep memory flat.
  const batchSize = o.batchSize ?? (o.embedder ? 256 : 1000);
  const maxInFlight = o.embedder ? 2 : 4;
  const stage = o.embedder ? createEmbedStage({ embedder: o.embedder, cache: o.vectorCache ?? null, defer: o.embeddings === 'background' }) : null;
  const progress = o.progress ?? createProgress({ quiet: true });
  const previous = await o.engine.meta();

  const registry = o.manufacturersFile
    ? ManufacturerRegistry.from(readManufacturersFile(o.manufacturersFile))
    : ManufacturerRegistry.from(previous?.manufacturers ?? []);
  const tree = o.categoriesFile ? CategoryTree.fromFile(readCategoriesFile(o.categoriesFile)) : CategoryTree.fromData(previous?.categories ?? []);
  const listEntries: ListsFileEntry[] | null = o.listsFile ? readListsFile(o.listsFile) : null;

  // List memberships are attached to parts as they stream by.
  const lists = listEntries
    ? listEntries.map((l) => ({ entry: l, id: listIdFor(l), members: l.members.map((m) => ({ m, pid: memberPartId(registry, m) })) }))
    : [];
  const membership = new Map<number, string[]>();
  for (const l of lists) for (const { pid } of l.members) membership.set(pid, [...(membership.get(pid) ?? []), l.id]);
  // Lists kept from the previous snapshot when no lists file is given.
  const keptLists = listEntries ? [] : (previous?.lists ?? []);
  for (const l of keptLists) for (const pid of l.member_ids) membership.set(pid, [...(membership.get(pid) ?? []), l.list_id]);
  // Kept lists of a version with legacy ids (before 'mpn_identity': ids of the search key) name parts by
  // those ids: each record is looked up by its legacy id as well, and the lists are carried over to its
  // new id (a legacy id that now names several parts, "SMF6.0CA" and "SMF60CA", keeps all of them).
  const fromLegacy = keptLists.length > 0 && legacyIds(previous?.features) ? new Map<number, number[]>() : null;

  const normaliser = new PartNormaliser(registry, tree, membership);
  const report = new IngestReport(o.reportFile);
  const loader: EngineLoader = await o.engine.beginLoad({ embeddingDims: o.embedder?.dims ?? null });
  // Compact id sets keep memory near-flat in the dump size (about 16 bytes a part each).
  const written = new IdSet();
  /** Part id -> where it was first read: file index * 2^32 + line. */
  const seen = new IdMap();
  let read = 0;
  let bytes = 0;
  let totalBytes = 0;
  const inFlight: Promise<void>[] = [];
  let writeChain: Promise<void> = Promise.resolve();

  // Spec vocabulary of the catalogue (validation of spec filters, units): name -> parts, unit counts.
  // `bare`: values that are plain numbers ("2", "1~4"); `unparsed`: numbers read without a unit from a
  // text that has one the parser does not know ("1.08cm", "55gf"), whose scales would not compare.
  const specNames = new Map<string, { parts: number; bare: number; unparsed: number; units: Map<string, number> }>();
  // Distributors named on offers (GraphQL supSellers): name as first written -> parts with an offer there.
  const sellers = new Map<string, { name: string; parts: number }>();
  const noteSpecs = (r: PartRecord) => {
    for (const name of new Set(r.offers.map((o) => o.distributor.trim()).filter(Boolean))) {
      const key = name.toLowerCase();
      const e = sellers.get(key);
      if (e) e.parts++;
      else sellers.set(key, { name, parts: 1 });
    }
    for (const sp of r.specs) {
      let e = specNames.get(sp.name);
      if (!e) specNames.set(sp.name, (e = { parts: 0, bare: 0, unparsed: 0, units: new Map() }));
      e.parts++;
      if (sp.min !== null && !sp.unit) {
        if (BARE_NUMBERS.test(sp.value)) e.bare++;
        else e.unparsed++;
      }
      if (sp.unit && sp.min !== null) e.units.set(sp.unit, (e.units.get(sp.unit) ?? 0) + 1);
    }
  };

  const state = () => ({ read, indexed: written.size, rejected: report.counts.rejected, bytes, totalBytes });

  // Parsing the next batch and writing the previous one overlap with the model (one call at a time).
  async function processBatch(batch: PartRecord[]): Promise<void> {
    const e = stage ? await stage.vectors(batch.map(embeddingText)) : null;
    const items: IndexedPart[] = batch.map((record, i) => ({ record, embedding: e?.vectors[i] ?? null, vectorKey: e?.vectors[i] ? e.keys[i] : null }));
    // Writes stay in order (a later duplicate must land after the earlier record).
    writeChain = writeChain.then(async () => {
      const failures = await loader.write(items);
      const failedIds = new Set(failures.map((f) => f.id));
      for (const f of failures) report.add({ kind: 'failed', reason: f.reason, record: { id: f.id, mpn: f.mpn, manufacturer: f.manufacturer } });
      for (const it of items) if (!failedIds.has(it.record.id)) written.add(it.record.id);
      progress.update(state());
    });
    await writeChain;
  }

  async function flush(batch: PartRecord[]): Promise<void> {
    const task = processBatch(batch);
    task.catch(() => undefined); // observed below; avoids an unhandled rejection while queued
    inFlight.push(task);
    if (inFlight.length >= maxInFlight) await inFlight.shift();
  }

  // Progress is the share of all the files' bytes read: their sizes are known up front.
  for (const file of o.parts) totalBytes += fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  try {
    for (const [fileIndex, file] of o.parts.entries()) {
      let source;
      try {
        source = await openLines(file);
      } catch (e) {
        throw new IngestInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const bytesBefore = bytes;
      let batch: PartRecord[] = [];
      for await (const { n, text, unreadable } of source.lines) {
        if (o.signal?.aborted) throw new IngestInterrupted(`interrupted at ${file}:${n}: the new version was dropped; the live version is unchanged`);
        if (report.backlogged) await report.drained();
        if (!unreadable && text.trim() === '') continue;
        read++;
        bytes = bytesBefore + source.bytesRead();
        if (unreadable) {
          report.add({ kind: 'rejected', file, line: n, reason: unreadable, record: text.slice(0, 10_000) });
          continue;
        }
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch (e) {
          report.add({ kind: 'rejected', file, line: n, reason: `invalid JSON: ${(e as Error).message}`, record: text.slice(0, 10_000) });
          continue;
        }
        // Deeper nesting would overflow the stack of the recursive steps after parsing (the report's own
        // JSON.stringify included): such a line is rejected as text.
        if (jsonDeeperThan(raw)) {
          report.add({ kind: 'rejected', file, line: n, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, record: text.slice(0, 10_000) });
          continue;
        }
        if (!checkPart(raw) && !validatePart(raw)) {
          const errors = describeErrors(validatePart.errors);
          report.add({ kind: 'rejected', file, line: n, reason: errors[0] ?? 'invalid record', errors, record: raw });
          continue;
        }
        const categoriesBefore = tree.size();
        const record = normaliser.normalise(raw as DumpPart);
        if (fromLegacy) {
          const old = partId(record.manufacturer.slug, record.mpn, true);
          const inLists = membership.get(old);
          if (inLists) {
            fromLegacy.set(old, [...(fromLegacy.get(old) ?? []), record.id]);
            record.lists = [...new Set([...record.lists, ...inLists])].sort();
          }
        }
        const dump = raw as DumpPart;
        if (dump.status != null && readStatus(dump.status) === null) {
          report.add({
            kind: 'amended',
            file,
            line: n,
            reason: `status "${dump.status}" is no lifecycle status (${PART_STATUSES.join(', ')}): indexed as unknown`,
            record: raw,
          });
        }
        if (o.categoriesFile && tree.size() > categoriesBefore) {
          report.add({
            kind: 'amended',
            file,
            line: n,
            reason: `category path "${(dump.category ?? []).join(' > ')}" is not in the categories file: added as ${record.category?.slug}`,
            record: raw,
          });
        }
        const first = seen.get(record.id);
        if (first !== undefined) {
          const at = `${o.parts[Math.floor(first / 2 ** 32)]}:${first % 2 ** 32}`;
          report.add({
            kind: 'duplicate',
            file,
            line: n,
            reason: `same manufacturer and MPN as the record first read at ${at} (${record.manufacturer.name} ${record.mpn}); this later record replaces the earlier one`,
            record: raw,
          });
        } else seen.set(record.id, fileIndex * 2 ** 32 + n);
        noteSpecs(record);
        batch.push(record);
        if (batch.length >= batchSize) {
          await flush(batch);
          batch = [];
        }
        if ((read & 1023) === 0) progress.update(state());
      }
      if (batch.length) await flush(batch);
      bytes = bytesBefore + source.size;
    }
    await Promise.all(inFlight);
    await writeChain;
    progress.update({ ...state(), bytes: totalBytes });
    progress.done();
    const streamSeconds = (performance.now() - started) / 1000;
    if (written.size > 0)
      progress.phase?.(`all ${read.toLocaleString('en-US')} records read: building the index and checking the new version before it goes live`);

    if (written.size === 0) throw new IngestInputError('nothing was indexed: every record was rejected or the files were empty');

    // The first call after the last write waits for the engine's end-of-load index builds.
    tree.setCounts(await loader.countsBy('category'));
    const mfrCounts = await loader.countsBy('manufacturer');
    for (const m of registry.all()) m.part_count = mfrCounts.get(m.slug) ?? 0;
    const now = new Date().toISOString();
    const listData: ApprovedListData[] = lists.map(({ entry, id, members }) => {
      const matched = members.filter(({ pid }) => written.has(pid));
      const unmatched = members.filter(({ pid }) => !written.has(pid)).map(({ m }) => m);
      for (const m of unmatched)
        report.add({
          kind: 'unmatched_list_member',
          reason: `member of list "${entry.name}" matches no indexed part (manufacturer "${m.manufacturer}", MPN "${m.mpn}"): left out of the list`,
          record: m,
        });
      return {
        list_id: id,
        name: entry.name,
        kind: entry.kind,
        slug: entry.kind === 'curated' ? (entry.slug ?? null) : null,
        description: entry.description ?? null,
        account: entry.kind === 'user' ? (entry.account ?? null) : null,
        member_ids: [...new Set(matched.map(({ pid }) => pid))],
        member_count: new Set(matched.map(({ pid }) => pid)).size,
        unmatched,
        updated_at: now,
      };
    });
    const meta: CatalogMeta = {
      version: loader.version,
      created_at: now,
      parts: written.size,
      embedding: {
        model: o.embedder?.model ?? null,
        dims: o.embedder?.dims ?? null,
        ...(o.embedder ? { fingerprint: embedderIdentity(o.embedder) } : {}),
        ...(stage?.counts.deferred ? { pending: stage.counts.deferred } : {}),
      },
      categories: tree.toJSON(),
      manufacturers: registry.toJSON(),
      features: [...INDEX_FEATURES],
      specs: [...specNames]
        .map(([name, e]) => ({
          name,
          parts: e.parts,
          unit: [...e.units].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
          unitless: e.bare > 0 && e.unparsed === 0,
        }))
        .sort((a, b) => b.parts - a.parts || a.name.localeCompare(b.name)),
      sellers: [...sellers.values()].sort((a, b) => b.parts - a.parts || a.name.localeCompare(b.name)),
      lists: [
        ...listData,
        ...keptLists
          .map((l) => ({ ...l, member_ids: [...new Set(l.member_ids.flatMap((id) => fromLegacy?.get(id) ?? [id]))].filter((id) => written.has(id)) }))
          .map((l) => ({ ...l, member_count: l.member_ids.length })),
      ],
    };
    // The report is complete before the swap: a report that cannot be written stops the ingest while the
    // live version is still the old one (after the swap nothing may abort: the new version is live).
    await report.close();
    if (o.signal?.aborted) throw new IngestInterrupted('interrupted before the swap: the new version was dropped; the live version is unchanged');
    const { version, count } = await loader.finish(meta, written.size);
    // The kept vectors this run used stay, older ones go; a version still waiting for vectors commits
    // when its fill completes (one generation per catalogue, so the previous one's vectors stay too).
    if (o.vectorCache && !meta.embedding.pending) await o.vectorCache.commit().catch(() => undefined);
    const finishSeconds = (performance.now() - started) / 1000 - streamSeconds;
    const seconds = (performance.now() - started) / 1000;
    return {
      read,
      indexed: count,
      rejected: report.counts.rejected,
      duplicates: report.counts.duplicate,
      failed: report.counts.failed,
      unmatchedListMembers: report.counts.unmatched_list_member,
      amended: report.counts.amended,
      seconds,
      partsPerSecond: read / seconds,
      embedSeconds: (stage?.counts.modelMs ?? 0) / 1000,
      vectors: { embedded: stage?.counts.embedded ?? 0, reused: stage?.counts.reused ?? 0, pending: stage?.counts.deferred ?? 0 },
      streamSeconds,
      finishSeconds,
      embedded: o.embedder !== null,
      version,
      reportFile: report.written ? report.file : null,
    };
  } catch (e) {
    progress.done();
    await Promise.allSettled(inFlight);
    await loader.abort().catch(() => undefined);
    await report.close().catch(() => undefined);
    throw e;
  }
}
