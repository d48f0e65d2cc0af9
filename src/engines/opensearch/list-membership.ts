/**
 * Approved-list membership on the live OpenSearch index: the parts that left a list and those that
 * joined it get `lists` updated by bulk scripted updates (and `record.lists` in versions loaded before
 * the record moved to the stored `record_json`, which leaves its lists to the `lists` field).
 */
import type { OsClient } from './client.ts';
import type { Dsl } from './filters.ts';
import { liveIndex, type IndexNames } from './indices.ts';
import type { SearchResponse } from './paging.ts';
import { hitId, ID_ONLY } from './records.ts';

type SearchFn = (body: Dsl, index: string) => Promise<SearchResponse | null>;

export interface ListContext {
  client: OsClient;
  names: IndexNames;
  search: SearchFn;
}

const ADD_LIST = `
boolean add(def holder, def id) {
  if (holder == null) { return false; }
  if (holder.lists == null) { holder.lists = new ArrayList(); }
  if (holder.lists.contains(id)) { return false; }
  holder.lists.add(id);
  return true;
}
boolean changed = add(ctx._source, params.list);
if (add(ctx._source.record, params.list)) { changed = true; }
if (!changed) { ctx.op = 'noop'; } else { ctx._source.remove('doc_hash'); }`;

const REMOVE_LIST = `
boolean changed = false;
for (def holder : [ctx._source, ctx._source.record]) {
  if (holder != null && holder.lists != null && holder.lists.removeIf(l -> l == params.list)) { changed = true; }
}
if (!changed) { ctx.op = 'noop'; } else { ctx._source.remove('doc_hash'); }`;

/** Ids of the parts matching `query` in `index`, walked with search_after. */
async function idsWhere(search: SearchFn, index: string, query: Dsl): Promise<string[]> {
  const out: string[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const r = await search({ size: 5000, track_total_hits: false, ...ID_ONLY, query, sort: [{ id: 'asc' }], ...(after ? { search_after: after } : {}) }, index);
    const hits = r?.hits.hits ?? [];
    for (const h of hits) out.push(String(hitId(h)));
    if (hits.length < 5000) return out;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * Bulk scripted updates of `lists` and `record.lists` (no _update_by_query: that needs the
 * reindex module, which minimal distributions lack). Scripts check before they change, so a
 * repeated request is harmless. A document they change loses its `doc_hash` (derive.ts), so a version
 * derived from this one indexes it again rather than trust a hash of what it was before the edit.
 */
export async function setListMembership(ctx: ListContext, listId: string, partIds: readonly number[]): Promise<void> {
  const { client, names, search } = ctx;
  const live = await liveIndex(client, names);
  if (!live) throw new Error('no live index version');
  const ids = [...new Set(partIds)].map(String);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 10_000) chunks.push(ids.slice(i, i + 10_000));
  // Members that left the list, then parts that joined it.
  const leaving = await idsWhere(search, live, {
    bool: { filter: [{ term: { lists: listId } }], must_not: chunks.map((c) => ({ ids: { values: c } })) },
  });
  const joining: string[] = [];
  for (const c of chunks) {
    joining.push(...(await idsWhere(search, live, { bool: { filter: [{ ids: { values: c } }], must_not: [{ term: { lists: listId } }] } })));
  }
  const actions = [...leaving.map((id) => ({ id, source: REMOVE_LIST })), ...joining.map((id) => ({ id, source: ADD_LIST }))];
  for (let i = 0; i < actions.length; i += 1000) {
    const ndjson = actions
      .slice(i, i + 1000)
      .map(
        (a) =>
          `${JSON.stringify({ update: { _id: a.id, retry_on_conflict: 5 } })}\n${JSON.stringify({ script: { lang: 'painless', source: a.source, params: { list: listId } } })}\n`,
      )
      .join('');
    const r = await client.send<{ errors: boolean; items: Record<string, { _id: string; status: number; error?: { type?: string; reason?: string } }>[] }>({
      method: 'POST',
      path: `/${live}/_bulk`,
      query: { filter_path: 'errors,items.*._id,items.*.status,items.*.error' },
      ndjson,
    });
    if (!r.errors) continue;
    for (const entry of r.items) {
      const item = Object.values(entry)[0];
      // A part deleted meanwhile has no membership to update.
      if (item?.error && item.error.type !== 'document_missing_exception') {
        throw new Error(`updating list ${listId} on part ${item._id} failed: ${item.error.type}: ${item.error.reason}`);
      }
    }
  }
  await client.send({ method: 'POST', path: `/${live}/_refresh` });
}
