/**
 * Versions derived from the live one (loader.ts). A load from scratch indexes every document again,
 * and with vectors that means inserting every vector into a new HNSW graph: minutes for the 29k
 * catalogue on a small node, whatever changed. So when the live version was built from the same
 * index definition, a new version starts as a `_clone` of it (its segments hard-linked: no document is
 * indexed again) and the load sends only the documents that differ, by a hash of each document
 * (`doc_hash`), then deletes those the dump no longer holds. A re-ingest of an unchanged dump indexes
 * nothing; one with 1% changed indexes 1%.
 *
 * The clone's source must refuse writes while it is cloned (OpenSearch's rule): the live version takes a
 * write block for the clone's few hundred milliseconds, so a list edit in that window fails and can be
 * retried. Searches are not affected.
 */
import { createHash } from 'node:crypto';
import { OpenSearchError, type OsClient } from './client.ts';

/** The keyword field holding each document's hash. */
export const DOC_HASH_FIELD = 'doc_hash';

/** The hash of a document's JSON (without the hash field): 96 bits, base64url. */
export function docHash(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 16);
}

/** The hash of an index definition: a version is only derived from one built from the same definition. */
export function definitionHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22);
}

/** Whether `live` was created from the definition of hash `hash` (its mapping's `_meta.definition`). */
export async function sameDefinition(client: OsClient, live: string, hash: string): Promise<boolean> {
  const r = await client.request<Record<string, { mappings?: { _meta?: { definition?: string } } }>>({
    method: 'GET',
    path: `/${encodeURIComponent(live)}/_mapping`,
    query: { filter_path: '*.mappings._meta' },
    allow: [404],
  });
  return Object.values(r ?? {})[0]?.mappings?._meta?.definition === hash;
}

/** Documents per page when reading the live version's hashes. */
const PAGE = 10_000;

/** Part id -> document hash of every document of `index`, read from doc values a page at a time. */
export async function documentHashes(client: OsClient, index: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  let after: unknown[] | undefined;
  for (;;) {
    const r = await client.send<{ hits: { hits: { fields?: Record<string, unknown[]>; sort?: unknown[] }[] } }>({
      method: 'POST',
      path: `/${encodeURIComponent(index)}/_search`,
      query: { filter_path: 'hits.hits.fields,hits.hits.sort' },
      body: {
        size: PAGE,
        track_total_hits: false,
        _source: false,
        stored_fields: '_none_',
        docvalue_fields: ['id', DOC_HASH_FIELD],
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      },
    });
    const hits = r.hits?.hits ?? [];
    for (const h of hits) {
      const id = Number(h.fields?.id?.[0]);
      const hash = h.fields?.[DOC_HASH_FIELD]?.[0];
      if (Number.isFinite(id) && typeof hash === 'string') out.set(id, hash);
    }
    if (hits.length < PAGE) return out;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * Clones `live` into `target` with `settings` laid over its own (the load's: no refreshes, no
 * replicas). The live version's write block is lifted whatever happens. Returns false when OpenSearch
 * refuses the clone (the caller loads from scratch instead).
 */
export async function cloneVersion(client: OsClient, live: string, target: string, settings: Record<string, unknown>): Promise<boolean> {
  const block = (on: boolean) =>
    client.send({ method: 'PUT', path: `/${encodeURIComponent(live)}/_settings`, body: { index: { blocks: { write: on ? true : null } } } });
  await block(true);
  try {
    await client.send({
      method: 'POST',
      path: `/${encodeURIComponent(live)}/_clone/${encodeURIComponent(target)}`,
      query: { wait_for_active_shards: '1' },
      body: { settings: { index: { ...settings, blocks: { write: null } } } },
    });
    return true;
  } catch (e) {
    if (e instanceof OpenSearchError) return false;
    throw e;
  } finally {
    await block(false);
  }
}
