/**
 * The OpenSearch adapter of the vector backfill (engines/vector-backfill.ts). Parts without a vector
 * are the version's documents without the vector field; a vector is written by a partial update that
 * also sets the document's new hash (derive.ts), so the next ingest of the same dump, derived from this
 * version, indexes nothing. The lease is a document of the meta index (`vector-fill`), taken and renewed
 * by optimistic concurrency (its sequence number).
 */
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { PartRecord } from '../../catalog/part.ts';
import type { VectorBackfill, VectorFillClaim } from '../vector-backfill.ts';
import { OpenSearchError, type OsClient } from './client.ts';
import { DOC_HASH_FIELD, docHash } from './derive.ts';
import { partDocument } from './documents.ts';
import type { IndexNames } from './indices.ts';
import { RECORD_FIELD, VECTOR_FIELD } from './mappings.ts';
import type { Hit } from './paging.ts';
import { recordOf } from './records.ts';

const CLAIM_ID = 'vector-fill';

export function createOpenSearchBackfill(ctx: { client: OsClient; names: IndexNames; onChange?: () => void }): VectorBackfill {
  const { client, names } = ctx;
  const claimPath = `/${names.meta}/_doc/${CLAIM_ID}`;
  type ClaimDoc = { _seq_no: number; _primary_term: number; _source?: { version?: string; meta?: VectorFillClaim } };
  const readClaim = () => client.request<ClaimDoc>({ method: 'GET', path: claimPath, allow: [404] });

  return {
    async partsWithoutVectors(version, afterId, limit) {
      const r = await client.send<{ hits: { hits: Hit[] } }>({
        method: 'POST',
        path: `/${encodeURIComponent(version)}/_search`,
        body: {
          size: limit,
          track_total_hits: false,
          _source: false,
          stored_fields: [RECORD_FIELD],
          docvalue_fields: ['id', 'lists'],
          query: { bool: { filter: [{ range: { id: { gt: afterId } } }], must_not: [{ exists: { field: VECTOR_FIELD } }] } },
          sort: [{ id: 'asc' }],
        },
      });
      return r.hits.hits.map((h) => recordOf(h)).filter((p): p is PartRecord => p !== undefined);
    },
    async writeVectors(version, items) {
      if (items.length === 0) return;
      const lines = items.map(({ record, vector }) => {
        const doc = partDocument(record, vector, true);
        const update = { doc: { [VECTOR_FIELD]: doc[VECTOR_FIELD], [DOC_HASH_FIELD]: docHash(JSON.stringify(doc)) } };
        return `${JSON.stringify({ update: { _id: String(record.id), retry_on_conflict: 3 } })}\n${JSON.stringify(update)}\n`;
      });
      const r = await client.send<{ errors: boolean; items?: Record<string, { status: number; error?: { reason?: string } }>[] }>({
        method: 'POST',
        path: `/${encodeURIComponent(version)}/_bulk`,
        // Visible to the next look for parts without a vector (a fill resumed, the count before completing).
        query: { filter_path: 'errors,items.*.status,items.*.error', refresh: 'wait_for' },
        ndjson: lines.join(''),
      });
      const bad = r.errors ? (r.items ?? []).map((it) => Object.values(it)[0]).find((x) => x?.error) : undefined;
      if (bad) throw new Error(`writing vectors into ${version} failed: ${bad.error?.reason ?? bad.status}`);
    },
    async complete(version) {
      await client.send({ method: 'POST', path: `/${encodeURIComponent(version)}/_refresh` });
      const { count } = await client.send<{ count: number }>({
        method: 'POST',
        path: `/${encodeURIComponent(version)}/_count`,
        body: { query: { bool: { must_not: [{ exists: { field: VECTOR_FIELD } }] } } },
      });
      if (count > 0) throw new Error(`index version ${version} still has ${count} parts without a vector`);
      const path = `/${names.meta}/_doc/${encodeURIComponent(version)}`;
      const doc = await client.send<{ _seq_no: number; _primary_term: number; _source: { meta: CatalogMeta } }>({ method: 'GET', path });
      const meta = doc._source.meta;
      delete meta.embedding.pending;
      await client.send({
        method: 'PUT',
        path,
        query: { refresh: 'true', if_seq_no: doc._seq_no, if_primary_term: doc._primary_term },
        body: { ...doc._source, meta, updated_at: new Date().toISOString() },
      });
      ctx.onChange?.();
    },
    async claim(c) {
      const held = await readClaim();
      const other = held?._source?.meta;
      if (other && other.version === c.version && other.owner !== c.owner && other.expiresAt > Date.now()) return false;
      try {
        await client.send({
          method: 'PUT',
          path: claimPath,
          query: held ? { if_seq_no: held._seq_no, if_primary_term: held._primary_term, refresh: 'true' } : { op_type: 'create', refresh: 'true' },
          body: { kind: 'vector_fill', version: c.version, updated_at: new Date().toISOString(), meta: c },
        });
        return true;
      } catch (e) {
        // Another process wrote the lease since it was read.
        if (e instanceof OpenSearchError && e.status === 409) return false;
        throw e;
      }
    },
    async release(version, owner) {
      const held = await readClaim();
      const c = held?._source?.meta;
      if (!held || c?.version !== version || c.owner !== owner) return;
      await client.request({
        method: 'DELETE',
        path: claimPath,
        query: { if_seq_no: held._seq_no, if_primary_term: held._primary_term, refresh: 'true' },
        allow: [404, 409],
      });
    },
    async currentClaim(version) {
      const c = (await readClaim())?._source?.meta;
      return c?.version === version ? c : null;
    },
  };
}
