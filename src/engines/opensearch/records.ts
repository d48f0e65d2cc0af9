/**
 * Part records in the OpenSearch parts index, in either shape a version may have:
 *  - versions with vectors keep the record as JSON in the stored field RECORD_FIELD, without `lists`
 *    (list-membership updates change the top-level `lists` in place, and reads take them from there):
 *    a search reads it without parsing `_source`, whose 384-float vector is most of it;
 *  - lexical-only versions, and versions loaded before the field existed, keep it in `_source.record`.
 * Searches ask for records by the live version's shape (recordRequest), remembered briefly; recordOf
 * reads either shape.
 */
import type { PartRecord } from '../../catalog/part.ts';
import type { OsClient } from './client.ts';
import type { IndexNames } from './indices.ts';
import { RECORD_FIELD, VECTOR_FIELD } from './mappings.ts';
import type { Hit } from './paging.ts';

/** How long searches trust their last look at the live version's shape (vectors, stored records). */
const SHAPE_TTL_MS = 1000;

export interface VersionShape {
  vectors: boolean;
  storedRecord: boolean;
}

/** What a search asks for to get its hits' records back, by the live version's shape (recordOf reads either). */
export function recordRequest(storedRecord: boolean): { _source: false | string[]; stored_fields?: string[]; docvalue_fields: string[] } {
  return storedRecord ? { _source: false, stored_fields: [RECORD_FIELD], docvalue_fields: ['lists'] } : { _source: ['record'], docvalue_fields: [] };
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

export function createRecordStore({ client, names }: { client: OsClient; names: IndexNames }) {
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
        query: { _source_includes: RECORD_SOURCE.join(',') },
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

  /**
   * How to read each hit's record: from the hit itself (parsed when first read), and for any that came
   * back without one (the live version changed shape), from getParts.
   */
  async function hitRecords(hits: readonly Hit[]): Promise<Map<string, () => PartRecord>> {
    const out = new Map<string, () => PartRecord>();
    const missing: number[] = [];
    for (const h of hits) {
      if (carriesRecord(h)) out.set(h._id, () => recordOf(h)!);
      else missing.push(Number(h._id));
    }
    if (missing.length) {
      forgetShape();
      for (const p of await getParts(missing)) out.set(String(p.id), () => p);
    }
    return out;
  }

  return { mappedFields, liveShape, forgetShape, getParts, hitRecords };
}
