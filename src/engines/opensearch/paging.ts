/** Search responses of the OpenSearch adapter, and paging through them beyond the result window. */
import type { Dsl } from './filters.ts';

export interface Hit {
  /** Absent when the search read no stored field (`stored_fields: '_none_'`): records.ts hitId. */
  _id?: string;
  _index?: string;
  /** With `seq_no_primary_term`: the document's version. */
  _seq_no?: number;
  _primary_term?: number;
  _score: number | null;
  _source?: Record<string, unknown>;
  fields?: Record<string, unknown[]>;
  sort?: unknown[];
}
export interface SearchResponse {
  hits: { total?: { value: number; relation: string }; hits: Hit[] };
  aggregations?: Record<string, unknown>;
}

/** OpenSearch's default index.max_result_window: from + size beyond it pages with search_after. */
const RESULT_WINDOW = 10_000;
/**
 * One page of a sorted search, with an exact total (or, with `exactTotal` false, one counted only up
 * to the end of the page: exact when fewer match, a lower bound otherwise). Beyond the result window
 * (where the first step counts exactly either way) it walks with
 * search_after in window-sized steps (every sort ends with the unique id, so the order is total):
 * first skipping `offset` hits (sort values only), then collecting `limit`.
 */
export async function page(
  search: (body: Dsl) => Promise<SearchResponse | null>,
  body: Dsl,
  offset: number,
  limit: number,
  exactTotal = true,
): Promise<{ total: number; hits: Hit[] }> {
  if (offset + limit <= RESULT_WINDOW) {
    // Without an exact total, hits are counted only up to the end of the page (OpenSearch stops counting
    // there): an exact count when fewer match (a page past the end included), a lower bound otherwise.
    const r = await search({ ...body, from: offset, size: limit, track_total_hits: exactTotal ? true : offset + limit > 0 ? offset + limit : false });
    const hits = r?.hits.hits ?? [];
    const counted = r?.hits.total?.value ?? 0;
    const bounded = !exactTotal && r?.hits.total?.relation === 'gte';
    return { total: bounded ? Math.max(counted, offset + hits.length) : counted, hits };
  }
  let total = 0;
  let after: unknown[] | undefined;
  const out: Hit[] = [];
  for (let toSkip = offset, toTake = limit; toSkip > 0 || toTake > 0;) {
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
    else {
      out.push(...hits);
      toTake -= hits.length;
    }
    if (hits.length < size) break;
    after = hits[hits.length - 1]!.sort;
  }
  return { total, hits: out };
}
