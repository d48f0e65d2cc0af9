/**
 * Part records in the OpenSearch parts index, in either shape a version may have:
 *  - versions with vectors keep the record as JSON in the stored field RECORD_FIELD, without `lists`
 *    (list-membership updates change the top-level `lists` in place, and reads take them from there):
 *    a search reads it without parsing `_source`, whose 384-float vector is most of it;
 *  - lexical-only versions, and versions loaded before the field existed, keep it in `_source.record`.
 * recordOf reads either shape. Searches whose hits need records (agentic search's BM25 and kNN lists)
 * read no stored field at all (CACHED_RECORDS): the records come from this process's cache, keyed by
 * the document's version (dropped when a version's name comes back as a new index), and the ones not
 * there from one search by id, of either shape (hitRecords). Whether the live version has vectors is
 * remembered briefly (liveShape).
 */
import type { PartRecord } from '../../catalog/part.ts';
import { DEFAULT_RECORD_CACHE } from '../port.ts';
import type { OsClient } from './client.ts';
import type { IndexNames } from './indices.ts';
import { RECORD_FIELD, VECTOR_FIELD } from './mappings.ts';
import type { Hit } from './paging.ts';
import type { Dsl } from './filters.ts';
import { deepFreeze } from '../../util/freeze.ts';
import { Lru } from '../../util/lru.ts';

/** How long searches trust their last look at the live version's shape (vectors, stored records). */
const SHAPE_TTL_MS = 1000;

export interface VersionShape {
  vectors: boolean;
  /** Whether its records are in the stored field RECORD_FIELD (else in `_source.record`). */
  storedRecord: boolean;
}

/** `_source` includes that bring a record back from a version of either shape (for a few documents). */
export const RECORD_SOURCE = ['record', RECORD_FIELD, 'lists'];

/**
 * The part record a hit carries: the stored record (with `lists` from doc values or `_source`), a
 * record JSON in `_source`, or an older version's `_source.record`; undefined when it asked for none.
 */
export function recordOf(h: Hit): PartRecord | undefined {
  const json = storedJson(h);
  if (typeof json === 'string') {
    const record = JSON.parse(json) as PartRecord;
    record.lists = listIds((h.fields?.lists ?? h._source?.lists ?? []) as string[]);
    return record;
  }
  const record = sourceRecord(h);
  // List edits append to `record.lists` in versions that keep the record in _source.
  return record ? { ...record, lists: listIds(record.lists ?? []) } : undefined;
}

const sourceRecord = (h: Hit): PartRecord | undefined => (h._source?.record ? (h._source.record as PartRecord) : undefined);

const storedJson = (h: Hit): unknown => h.fields?.[RECORD_FIELD]?.[0] ?? h._source?.[RECORD_FIELD];

/** Whether a hit carries its record (either shape), without reading it. */
function carriesRecord(h: Hit): boolean {
  return typeof storedJson(h) === 'string' || sourceRecord(h) !== undefined;
}

/** A record's list ids as every engine gives them: distinct, in sort order (normalise.ts). */
function listIds(lists: readonly string[]): string[] {
  return [...new Set(lists)].sort();
}

/** A hit's part id: its `id` doc value (searches that read no stored field have no `_id`), else its `_id`. */
export function hitId(h: Hit): number {
  const v = h.fields?.id?.[0];
  return v !== undefined ? Number(v) : Number(h._id);
}

/** Search body fields for hits that carry no stored field: the id from doc values. */
export const ID_ONLY = { _source: false, stored_fields: '_none_', docvalue_fields: ['id'] };

/**
 * Search body fields for hits whose records come from the cache (hitRecords): no stored field, and the
 * document's index, sequence number and primary term, which name its version. Reading any stored field
 * of a hit, its `_id` included, decompresses the block of stored records around it: a page of 100
 * BM25 hits of the 29k catalogue with vectors took 6 ms in the node with `_id`, 12 with the records,
 * and 2 without either.
 */
export const CACHED_RECORDS = { ...ID_ONLY, seq_no_primary_term: true };

/** `cacheSize`: parsed records kept (default DEFAULT_RECORD_CACHE; 0 keeps none). */
export function createRecordStore({
  client,
  names,
  cacheSize = DEFAULT_RECORD_CACHE,
  readParams = {},
}: {
  client: OsClient;
  names: IndexNames;
  cacheSize?: number;
  /** Query parameters of every search (the engine's: whole results only, the copies preferred); `_mget` takes the preference. */
  readParams?: Record<string, string>;
}) {
  /**
   * Records by document version (index, id, sequence number, primary term), most recently used last,
   * deeply frozen (callers share them). A document rewritten (a list edit) has a new sequence number,
   * and a new version another index: neither is ever answered from an older entry.
   */
  const cache = new Lru<string, PartRecord>(cacheSize);
  const versionKey = (index: string, id: number, seqNo: number, term: number) => `${index}\u0000${id}\u0000${seqNo}\u0000${term}`;
  const hitKey = (h: Hit): string | null =>
    h._index !== undefined && h._seq_no !== undefined && h._primary_term !== undefined ? versionKey(h._index, hitId(h), h._seq_no, h._primary_term) : null;
  const keep = (key: string, r: PartRecord): PartRecord => (cacheSize > 0 ? cache.set(key, deepFreeze(r)) : r);

  /**
   * The UUID of each version index as last seen. A version name is used again only after its index and the
   * meta index were deleted (a wipe, then a load from scratch), and then a document loaded in the same order
   * has the same id, sequence number and primary term as before: its cached record would be the old one.
   * So the UUIDs are read again at most every SHAPE_TTL_MS while searches read records, and the cache is
   * dropped when a name's UUID changed. The first read is awaited (nothing is cached before it); later ones
   * run beside the searches, so a reused name can answer old records for about a second.
   */
  const uuids = new Map<string, string>();
  let uuidsAt = 0;
  let uuidsReading: Promise<void> | null = null;
  function readUuids(): Promise<void> {
    uuidsReading ??= (async () => {
      try {
        const r = await client.request<Record<string, { settings?: { index?: { uuid?: string } } }>>({
          method: 'GET',
          path: `/${names.pattern}/_settings/index.uuid`,
          // This node's cluster state: no wait for the cluster manager (see liveIndex).
          query: { local: 'true' },
          allow: [404],
        });
        let reused = false;
        for (const [index, v] of Object.entries(r ?? {})) {
          const uuid = v.settings?.index?.uuid;
          if (uuid === undefined) continue;
          const before = uuids.get(index);
          if (before !== undefined && before !== uuid) reused = true;
          uuids.set(index, uuid);
        }
        if (reused) cache.clear();
        uuidsAt = Date.now();
      } finally {
        uuidsReading = null;
      }
    })();
    return uuidsReading;
  }
  async function checkUuids(): Promise<void> {
    if (cacheSize <= 0 || Date.now() - uuidsAt < SHAPE_TTL_MS) return;
    if (uuidsAt === 0) await readUuids();
    else void readUuids().catch(() => undefined); // tried again on the next search
  }

  /** Which of the vector and stored-record fields `index` maps (one mapping request). */
  async function mappedFields(index = names.alias): Promise<VersionShape> {
    const r = await client.request<Record<string, { mappings?: Record<string, unknown> }>>({
      method: 'GET',
      path: `/${index}/_mapping/field/${VECTOR_FIELD},${RECORD_FIELD}`,
      allow: [404],
    });
    const maps = Object.values(r ?? {}).map((m) => m.mappings ?? {});
    return { vectors: maps.some((m) => VECTOR_FIELD in m), storedRecord: maps.length > 0 && maps.every((m) => RECORD_FIELD in m) };
  }

  /**
   * The live version's shape, remembered for SHAPE_TTL_MS (the catalogue view's refresh interval):
   * asked on every call, the mapping request was a round trip in front of every kNN request. A version
   * swap by this engine forgets it; after a swap elsewhere, a kNN request on a lexical-only version fails
   * on the unmapped field, answers no hits and forgets it too, and hits that come back without their
   * record (the other shape) are completed with getParts.
   */
  let shapeCheck: { at: number; shape: VersionShape } | null = null;
  /** Bumped by every forgetShape(): a mapping answer asked for before it is not remembered. */
  let shapeEpoch = 0;
  function forgetShape(): void {
    shapeCheck = null;
    shapeEpoch++;
  }
  async function liveShape(): Promise<VersionShape> {
    if (shapeCheck && Date.now() - shapeCheck.at < SHAPE_TTL_MS) return shapeCheck.shape;
    const epoch = shapeEpoch;
    const shape = await mappedFields();
    if (epoch === shapeEpoch) shapeCheck = { at: Date.now(), shape };
    return shape;
  }

  /** Full records in the order of `ids` (an `_mget` per 1,000; either shape); unknown ids are left out. */
  async function getParts(ids: readonly number[]): Promise<PartRecord[]> {
    if (ids.length === 0) return [];
    const byId = new Map<number, PartRecord>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const chunk = unique.slice(i, i + 1000);
      const r = await client.request<{ docs: (Hit & { found?: boolean })[] }>({
        method: 'POST',
        path: `/${names.alias}/_mget`,
        query: { _source_includes: RECORD_SOURCE.join(','), ...(readParams.preference ? { preference: readParams.preference } : {}) },
        body: { ids: chunk.map(String) },
        allow: [404],
      });
      if (!r) return [];
      for (const d of r.docs) {
        const record = d.found ? recordOf(d) : undefined;
        if (record) byId.set(Number(d._id), record);
      }
    }
    return ids.map((id) => byId.get(id)).filter((p): p is PartRecord => p !== undefined);
  }

  /** The fields that bring a version's records back with its hits: the stored record alone (not `_source`, with vectors mostly the vector), or `_source.record`. */
  const inlineRecords = (storedRecord: boolean): Dsl =>
    storedRecord ? { _source: false, stored_fields: [RECORD_FIELD], docvalue_fields: ['id', 'lists'] } : { _source: ['record'], docvalue_fields: ['id'] };

  /**
   * Share of searched hits whose records were in the cache, a moving average over searches. While it
   * is low (a process just started, queries over ever other parts) a search asks for its hits' records
   * itself, in one round trip: a cold search without them and a second one for the records took 17 ->
   * 20 ms for the bench's agentic queries at 29k hybrid; with most records cached, a search without
   * them takes 16 -> 7 ms.
   */
  let hitShare = 0;
  const HIT_SHARE_CACHED = 0.5;

  /** Search body fields for hits whose records hitRecords will give: CACHED_RECORDS, with the records themselves while few are cached. */
  async function recordFields(): Promise<Dsl> {
    if (cacheSize > 0 && hitShare >= HIT_SHARE_CACHED) return CACHED_RECORDS;
    const { storedRecord } = await liveShape();
    // `stored_fields: '_none_'` would leave `_source` out too: without stored records, the default (`_id`).
    return { ...CACHED_RECORDS, stored_fields: undefined, ...inlineRecords(storedRecord) };
  }

  /**
   * How to read each hit's record, by part id: from the cache when the hit names its document's version
   * (recordFields: CACHED_RECORDS); else from the hit itself when it carries it (parsed when first read,
   * then kept); else from one search by id per index the hits came from (their version, kept), and for
   * any not found there (a version dropped since), from the live version (getParts).
   */
  async function hitRecords(hits: readonly Hit[]): Promise<Map<number, () => PartRecord>> {
    await checkUuids();
    const out = new Map<number, () => PartRecord>();
    const missing = new Map<string, number[]>();
    const unversioned: number[] = [];
    let found = 0;
    for (const h of hits) {
      const id = hitId(h);
      const key = hitKey(h);
      const r = key === null ? undefined : cache.get(key);
      if (r !== undefined) {
        found++;
        out.set(id, () => r);
      } else if (carriesRecord(h)) {
        let parsed: PartRecord | undefined;
        out.set(id, () => (parsed ??= key === null ? recordOf(h)! : keep(key, recordOf(h)!)));
      } else if (key !== null) {
        const ids = missing.get(h._index!);
        if (ids) ids.push(id);
        else missing.set(h._index!, [id]);
      } else unversioned.push(id);
    }
    if (hits.length) hitShare = 0.8 * hitShare + (0.2 * found) / hits.length;
    const stored = missing.size > 0 && (await liveShape()).storedRecord;
    for (const [index, ids] of missing) {
      // A search by id, not `_mget`: its fetch phase reads the stored records in document order, where
      // `_mget` gets each document on its own.
      const r = await client.request<{ hits: { hits: Hit[] } }>({
        method: 'POST',
        path: `/${index}/_search`,
        query: readParams,
        body: { size: ids.length, track_total_hits: false, query: { ids: { values: ids.map(String) } }, ...inlineRecords(stored), seq_no_primary_term: true },
        allow: [404],
      });
      for (const d of r?.hits.hits ?? []) {
        const record = recordOf(d);
        if (!record) continue;
        const key = hitKey(d);
        const kept = key === null ? record : keep(key, record);
        out.set(hitId(d), () => kept);
      }
      for (const id of ids) if (!out.has(id)) unversioned.push(id);
    }
    if (unversioned.length) {
      forgetShape();
      for (const p of await getParts(unversioned)) out.set(p.id, () => p);
    }
    return out;
  }

  return { mappedFields, liveShape, forgetShape, getParts, hitRecords, recordFields };
}
