/** Search responses of the OpenSearch adapter, and paging through them beyond the result window. */
import type { PartRecord } from '../../catalog/part.ts';
import type { Dsl } from './filters.ts';
import { RECORD_FIELD } from './mappings.ts';

export interface Hit {
  _id: string;
  _score: number | null;
  _source?: Record<string, unknown>;
  fields?: Record<string, unknown[]>;
  sort?: unknown[];
}
/**
 * RECORD_FIELD: the stored field holding a part's record as JSON (without `lists`, which list-membership
 * updates change in place) in versions with vectors: read from stored fields, a search skips parsing the
 * document's `_source`, whose 384-float vector is most of it. Lexical-only versions, and versions loaded
 * before the field existed, keep the record in `_source.record`.
 */
export { RECORD_FIELD };

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
  const json = h.fields?.[RECORD_FIELD]?.[0] ?? h._source?.[RECORD_FIELD];
  if (typeof json === 'string') return { ...(JSON.parse(json) as Omit<PartRecord, 'lists'>), lists: listIds((h.fields?.lists ?? h._source?.lists ?? []) as string[]) };
  const record = h._source?.record as PartRecord | undefined;
  // List edits append to `record.lists` in versions that keep the record in _source.
  return record ? { ...record, lists: listIds(record.lists ?? []) } : undefined;
}

/** A record's list ids as every engine gives them: distinct, in sort order (normalise.ts). */
function listIds(lists: readonly string[]): string[] {
  return [...new Set(lists)].sort();
}

export interface SearchResponse {
  hits: { total?: { value: number; relation: string }; hits: Hit[] };
  aggregations?: Record<string, unknown>;
}

/** OpenSearch's default index.max_result_window: from + size beyond it pages with search_after. */
const RESULT_WINDOW = 10_000;
/**
 * One page of a sorted search with an exact total. Beyond the result window it walks with
 * search_after in window-sized steps (every sort ends with the unique id, so the order is total):
 * first skipping `offset` hits (sort values only), then collecting `limit`.
 */
export async function page(search: (body: Dsl) => Promise<SearchResponse | null>, body: Dsl, offset: number, limit: number, exactTotal = true): Promise<{ total: number; hits: Hit[] }> {
  if (offset + limit <= RESULT_WINDOW) {
    const r = await search({ ...body, from: offset, size: limit, track_total_hits: exactTotal });
    const hits = r?.hits.hits ?? [];
    return { total: exactTotal ? (r?.hits.total?.value ?? 0) : offset + hits.length, hits };
  }
  let total = 0;
  let after: unknown[] | undefined;
  const out: Hit[] = [];
  for (let toSkip = offset, toTake = limit; toSkip > 0 || toTake > 0; ) {
    const skipping = toSkip > 0;
    const size = Math.min(RESULT_WINDOW, skipping ? toSkip : toTake);
    const r = await search({
      ...body,
      ...(skipping ? { _source: false, stored_fields: undefined, docvalue_fields: undefined } : {}),
      size,
      track_total_hits: after === undefined,
      ...(after ? { search_after: after } : {}),
    });
    if (after === undefined) total = r?.hits.total?.value ?? 0;
    const hits = r?.hits.hits ?? [];
    if (skipping) toSkip -= hits.length;
    else (out.push(...hits), (toTake -= hits.length));
    if (hits.length < size) break;
    after = hits[hits.length - 1]!.sort;
  }
  return { total, hits: out };
}
