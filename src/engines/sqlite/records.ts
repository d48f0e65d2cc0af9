/**
 * Reading the stored part records of the SQLite adapter: their JSON text by id, parsed at once
 * (getParts) or when a hit's `record` is first read (hits of searches asking for records: a caller
 * that ranks 200 hits and shows 10 parses what it looks at), and kept parsed in a RecordCache.
 */
import type Database from 'better-sqlite3';
import type { PartRecord } from '../../catalog/part.ts';
import type { VersionTables } from './schema.ts';
import { withRecord } from '../lazy-record-hit.ts';
import { deepFreeze } from '../../util/freeze.ts';
import { Lru } from '../../util/lru.ts';

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * A record's stored JSON text: JSON with every non-ASCII character escaped (`\u03a9` for "Ω"), so the
 * text is ASCII. SQLite hands ASCII text to V8 on its fast path: 100 records of a search are read in
 * a third of the time (0.2 against 0.7 ms; most records hold a "Ω", "µ" or "±"). Parsing gives the
 * same record; texts stored before this (plain UTF-8) read as before.
 */
export function recordJson(r: PartRecord): string {
  return JSON.stringify(r).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Parsed records of the live version, the most recently used kept (at most `max`; 0 keeps none).
 * Parsing is most of the cost of reading a record (a 2 KB text, about 10-20 µs; an agentic query reads
 * 100-200 candidates), so a part read again (a popular part, a query asked again, the next page) is
 * not parsed again. Cached records are deeply frozen: callers share them and must copy to change them.
 * The engine clears the cache whenever the database changed (another process's commit, a list edit).
 */
export class RecordCache {
  readonly #kept: Lru<number, PartRecord>;
  #generation = 0;
  constructor(readonly max: number) {
    this.#kept = new Lru(max);
  }
  /** Moves on at every clear: a text read before it must not be cached after it. */
  get generation(): number {
    return this.#generation;
  }
  get(id: number): PartRecord | undefined {
    return this.#kept.get(id);
  }
  /**
   * Parses a record's text and keeps it (frozen) when the text was read in the current generation and
   * is not an outlier (over MAX_CACHED_TEXT characters: a record with long document texts).
   */
  parse(id: number, text: string, readIn = this.#generation): PartRecord {
    const r = JSON.parse(text) as PartRecord;
    if (this.max === 0 || readIn !== this.#generation || text.length > MAX_CACHED_TEXT) return r;
    return this.#kept.set(id, deepFreeze(r));
  }
  clear(): void {
    this.#generation++;
    this.#kept.clear();
  }
  get size(): number {
    return this.#kept.size;
  }
}

/** Records with a longer text are not cached (the average is about 2 KB): the cache's memory stays near max x 3.4 KiB. */
export const MAX_CACHED_TEXT = 64 * 1024;

/** A record by id: parsed already (from the cache) or its stored JSON text. */
export type RecordSource = PartRecord | string;

/** The stored records by id (unknown ids absent): those in the cache as they are, the others' JSON text. */
export function recordTexts(
  stmt: (sql: string) => Database.Statement,
  t: VersionTables,
  allIds: readonly number[],
  cache?: RecordCache,
): Map<number, RecordSource> {
  const byId = new Map<number, RecordSource>();
  const ids: number[] = [];
  for (const id of allIds) {
    const r = cache?.get(id);
    if (r) byId.set(id, r);
    else ids.push(id);
  }
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = stmt(`SELECT id, record FROM ${t.parts} WHERE id IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as { id: number; record: string }[];
    for (const r of rows) byId.set(r.id, r.record);
  }
  return byId;
}

/**
 * A record from its source: as it is when parsed; else from the cache (parsed meanwhile by another
 * reader, or newer) or parsed now, cached only when its text was read in generation `readIn`.
 */
const parsed = (id: number, src: RecordSource, cache: RecordCache | undefined, readIn?: number): PartRecord =>
  typeof src !== 'string' ? src : cache ? (cache.get(id) ?? cache.parse(id, src, readIn)) : (JSON.parse(src) as PartRecord);

/** The records of `ids` in that order, parsed (and cached); unknown ids are left out. */
export function parsedRecords(texts: ReadonlyMap<number, RecordSource>, ids: readonly number[], cache?: RecordCache): PartRecord[] {
  const out: PartRecord[] = [];
  for (const id of ids) {
    const src = texts.get(id);
    if (src !== undefined) out.push(parsed(id, src, cache));
  }
  return out;
}

/**
 * The hits, each with its record read only when first asked for: from the cache, else its stored text
 * (one row by id, from version `t`), parsed and cached. For lists whose records are mostly not read:
 * agentic search reads the records of about half of kNN's 100 hits, so reading every hit's text at
 * once (withLazyRecords) read some 50 texts for nothing, on the request's path after the embedding.
 * A hit whose part `t` does not hold, or whose version's tables are gone (dropped by two index swaps
 * during one request), has no record (`undefined`; agentic search then reads the part from the live
 * version). A record is read as it is when asked for: a list edit committed since the search shows in
 * it, where the hits of a text search read earlier in the same request may not show it yet.
 */
export function withRecordsOnDemand<T extends { id: number; score?: number }>(
  stmt: (sql: string) => Database.Statement,
  t: VersionTables,
  hits: readonly T[],
  cache?: RecordCache,
): (T & { record?: PartRecord })[] {
  // As in withLazyRecords: a text read after a clear (the database changed since the hits were found) is parsed, not cached.
  const readIn = cache?.generation;
  const sql = `SELECT record AS one_record FROM ${t.parts} WHERE id = ?`;
  const one = (id: number): PartRecord | undefined => {
    const kept = cache?.get(id);
    if (kept) return kept;
    let text: string | undefined;
    try {
      text = stmt(sql).pluck().get(id) as string | undefined;
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_ERROR' && /no such table/.test((e as Error).message)) return undefined;
      throw e;
    }
    return text === undefined ? undefined : parsed(id, text, cache, readIn);
  };
  return hits.map((h) => withRecord(h, () => one(h.id)));
}

/** The hits, each with its record (parsed on first read, then cached) when it is known. */
export function withLazyRecords<T extends { id: number; record?: PartRecord }>(
  hits: readonly T[],
  texts: ReadonlyMap<number, RecordSource>,
  cache?: RecordCache,
): T[] {
  // The cache generation the text was read in: read later (after a clear), it is parsed but not cached.
  const readIn = cache?.generation;
  return hits.map((h) => {
    const src = texts.get(h.id);
    return src === undefined ? h : (withRecord(h, () => parsed(h.id, src, cache, readIn)) as T);
  });
}
