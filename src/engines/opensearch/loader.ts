/**
 * Bulk load of a new parts index version.
 *
 * beginLoad creates `<prefix>-parts-v<N>` with the layout's shards, refreshes off and no replicas, or,
 * when the live version was built from the same index definition (shards included), clones the live
 * version under that name (derive.ts): then `write` sends only the documents whose hash differs from
 * the live one's, and `finish` deletes those the dump no longer holds. `write` sends _bulk index actions
 * (the part id is the _id, so a repeated part replaces the earlier one). Transient request failures are
 * retried by the client; items rejected with 429/5xx are re-sent with backoff, and items still rejected
 * so after every attempt fail the load (the cluster is short of a shard, not the record wrong: reporting
 * them as failed records would let a version without them go live); other item errors are returned as
 * WriteFailures. `finish` refreshes, checks the count, merges the segments (mergeSegments), puts the
 * serving settings back (refresh interval, the layout's replicas), waits until every shard copy the
 * cluster can place is active (health.ts), stores the CatalogMeta, swaps the alias in one call and
 * keeps exactly one previous version. Whatever fails before the swap leaves the live version as it
 * was; abort drops the new one.
 *
 * Replicas are added after the merge: each replica then copies the merged segment files from its
 * primary, instead of indexing every document again and merging on its own, and every copy of a shard
 * holds the same segments, so a query scores alike on whichever copy answers it.
 */
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { IndexedPart } from '../../catalog/part.ts';
import type { EngineLoader, WriteFailure } from '../port.ts';
import { backoffDelay, isTransientStatus, OpenSearchError, sleep, type OsClient } from './client.ts';
import { IdSet } from '../../catalog/id-set.ts';
import { cloneVersion, DOC_HASH_FIELD, docHash, documentHashes, sameDefinition } from './derive.ts';
import { partDocument } from './documents.ts';
import { bumpSeq, deleteIndex, listVersions, liveIndex, pointers, readState, swapAlias, writePointers, type IndexNames } from './indices.ts';
import { waitForCopies } from './health.ts';
import { partsIndexBody, partsLoadSettings, partsServingSettings, type IndexBody } from './mappings.ts';
import type { OpenSearchIndexLayout } from './options.ts';

/**
 * Concurrent _bulk requests per write: a request to one shard is indexed by one write thread, so
 * two in flight keep two threads busy. Items are split by id, so one id always takes one lane.
 */
const BULK_LANES = 2;

export interface LoaderContext {
  client: OsClient;
  names: IndexNames;
  layout: OpenSearchIndexLayout;
}

interface BulkItem {
  part: IndexedPart;
  lines: string;
}

interface BulkResponse {
  errors: boolean;
  items?: Record<string, { _id?: string; status: number; error?: { type?: string; reason?: string; caused_by?: { type?: string; reason?: string } } }>[];
}

function itemReason(e: NonNullable<NonNullable<BulkResponse['items']>[number][string]['error']>): string {
  const cause = e.caused_by ? ` (${[e.caused_by.type, e.caused_by.reason].filter(Boolean).join(': ')})` : '';
  return `${e.type ?? 'error'}: ${e.reason ?? 'rejected'}${cause}`;
}

function failure(p: IndexedPart, reason: string): WriteFailure {
  return { id: p.record.id, mpn: p.record.mpn, manufacturer: p.record.manufacturer.name, reason };
}

/**
 * Creates the next version index, or clones `from` under its name; the create (or clone) call itself
 * claims N (a clash moves to N+1). A clone OpenSearch refuses returns null (the caller creates instead).
 */
async function createVersion(ctx: LoaderContext, body: IndexBody, from: string | null = null): Promise<{ name: string; seq: number } | null> {
  const { client, names } = ctx;
  const [state, versions] = await Promise.all([readState(client, names), listVersions(client, names)]);
  let seq = Math.max(state.seq, ...versions.map((v) => v.seq), 0) + 1;
  for (let tries = 0; ; tries++, seq++) {
    const name = names.version(seq);
    try {
      if (from) {
        if (!(await cloneVersion(client, from, name, partsLoadSettings()))) return null;
      } else await client.send({ method: 'PUT', path: `/${name}`, body });
      await bumpSeq(client, names, seq);
      return { name, seq };
    } catch (e) {
      if (e instanceof OpenSearchError && e.type === 'resource_already_exists_exception' && tries < 20) continue;
      throw e;
    }
  }
}

/** Share of a derived version's documents that may change before it is merged like a version from scratch. */
const DERIVED_MERGE_SHARE = 0.1;

/** Most time between two looks at a running merge. */
const MERGE_POLL_MS = 1000;

/**
 * Merges a loaded version's segments down to `max` and refreshes it, so that searches see the merged
 * segments. A search visits every segment (and a kNN search every segment's graph): the 578k catalogue
 * loads into 16, and merged into one, its agentic search p50 went 16.5 -> 13.7 ms and MPN search
 * 2.6 -> 1.8 ms (lexical, the two versions alternating in one process), for 7 s more at the end of
 * the load. Run as a task and waited for by polling: a large merge outlives any one request.
 */
export async function mergeSegments(client: OsClient, index: string, max: number): Promise<void> {
  const { task } = await client.send<{ task: string }>({
    method: 'POST',
    path: `/${index}/_forcemerge`,
    query: { max_num_segments: String(max), wait_for_completion: 'false' },
  });
  for (;;) {
    const t = await client.request<{ completed?: boolean; error?: unknown; response?: { _shards?: { failed?: number } } }>({
      method: 'GET',
      path: `/_tasks/${encodeURIComponent(task)}`,
      allow: [404],
    });
    // Gone (a finished task whose result the node could not keep): the merge ended; the refresh below
    // shows whatever it made.
    if (t === null) break;
    if (t.completed) {
      if (t.error !== undefined || (t.response?._shards?.failed ?? 0) > 0) {
        throw new Error(`merging the segments of ${index} failed: ${JSON.stringify(t.error ?? t.response)}; the live version is unchanged`);
      }
      break;
    }
    await sleep(MERGE_POLL_MS);
  }
  await client.send({ method: 'POST', path: `/${index}/_refresh` });
}

export async function createOpenSearchLoader(
  ctx: LoaderContext,
  embeddingDims: number | null,
  opts: { mergeSegments?: number; derive?: boolean } = {},
): Promise<EngineLoader> {
  const { client, names } = ctx;
  const body = partsIndexBody(embeddingDims, ctx.layout);
  // Derived from the live version when it was built from this definition (derive.ts); else from scratch.
  const live = opts.derive === false ? null : await liveIndex(client, names);
  const definition = (body.mappings._meta as { definition: string }).definition;
  let base: { name: string; hashes: Map<number, string> } | null =
    live && (await sameDefinition(client, live, definition)) ? { name: live, hashes: await documentHashes(client, live) } : null;
  let created = base ? await createVersion(ctx, body, base.name) : null;
  if (!created) {
    base = null;
    created = (await createVersion(ctx, body))!;
  }
  const { name: version, seq } = created;
  const withVectors = embeddingDims !== null && embeddingDims > 0;
  /** Ids of this load's parts (sent or, unchanged, kept from the base), and those sent. */
  const seen = new IdSet();
  const sent = new IdSet();
  /** Parts of the base whose write failed in this load. */
  const failed = new Set<number>();
  let state: 'loading' | 'finished' | 'aborted' = 'loading';

  function assertLoading(): void {
    if (state !== 'loading') throw new Error(`index version ${version} is ${state}; start a new load`);
  }

  /** One _bulk request; splits the batch when OpenSearch finds the body too large. */
  async function sendBulk(items: BulkItem[]): Promise<{ item: BulkItem; status: number; reason: string }[]> {
    let res: BulkResponse;
    try {
      res = await client.send<BulkResponse>({
        method: 'POST',
        path: `/${version}/_bulk`,
        query: { filter_path: 'errors,items.*.status,items.*.error' },
        ndjson: items.map((i) => i.lines).join(''),
        retries: Math.max(client.policy.retries, 8),
      });
    } catch (e) {
      if (e instanceof OpenSearchError && e.status === 413 && items.length > 1) {
        const mid = Math.ceil(items.length / 2);
        return [...(await sendBulk(items.slice(0, mid))), ...(await sendBulk(items.slice(mid)))];
      }
      if (e instanceof OpenSearchError) {
        const named = items.slice(0, 3).map((i) => `${i.part.record.manufacturer.name} ${i.part.record.mpn} (id ${i.part.record.id})`);
        throw new Error(
          `a bulk request of ${items.length} records (${named.join(', ')}${items.length > 3 ? ', ...' : ''}) to ${version} failed: ${e.message}`,
          { cause: e },
        );
      }
      throw e;
    }
    if (!res.errors) return [];
    const rejected: { item: BulkItem; status: number; reason: string }[] = [];
    (res.items ?? []).forEach((entry, i) => {
      const r = Object.values(entry)[0];
      const item = items[i];
      if (r?.error && item) rejected.push({ item, status: r.status, reason: itemReason(r.error) });
    });
    return rejected;
  }

  /** Sends items, re-sending those rejected for load (429) or a passing node problem (5xx). */
  async function sendWithRetries(items: BulkItem[]): Promise<WriteFailure[]> {
    const failures: WriteFailure[] = [];
    const maxAttempts = Math.max(client.policy.retries, 8);
    let pending = items;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const rejected = await sendBulk(pending);
      const transient = rejected.filter((r) => isTransientStatus(r.status));
      for (const r of rejected) if (!isTransientStatus(r.status)) failures.push(failure(r.item.part, r.reason));
      if (transient.length && attempt >= maxAttempts) {
        const named = transient.slice(0, 3).map((r) => `${r.item.part.record.manufacturer.name} ${r.item.part.record.mpn} (${r.status} ${r.reason})`);
        throw new Error(
          `${version} still rejected ${transient.length} record${transient.length === 1 ? '' : 's'} after ${attempt + 1} attempts ` +
            `(${named.join('; ')}${transient.length > 3 ? '; ...' : ''}): the cluster cannot take them now; the live version is unchanged`,
        );
      }
      pending = transient.map((r) => r.item);
      if (pending.length) await sleep(backoffDelay(attempt, client.policy));
    }
    return failures;
  }

  /** Deletes documents by part id (a derived version's parts the dump no longer holds). */
  async function deleteDocuments(ids: readonly number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 5000) {
      const ndjson = ids
        .slice(i, i + 5000)
        .map((id) => `${JSON.stringify({ delete: { _id: String(id) } })}\n`)
        .join('');
      const r = await client.send<BulkResponse>({
        method: 'POST',
        path: `/${version}/_bulk`,
        query: { filter_path: 'errors,items.*.status,items.*.error' },
        ndjson,
      });
      const bad = (r.items ?? []).map((it) => Object.values(it)[0]).find((x) => x?.error && x.status !== 404);
      if (bad?.error) throw new Error(`dropping parts the dump no longer holds from ${version} failed: ${itemReason(bad.error)}`);
    }
  }

  return {
    version,
    async write(parts) {
      assertLoading();
      const failures: WriteFailure[] = [];
      // A later record with the same id replaces an earlier one: only the last is sent, so
      // concurrent requests and re-sent items can never land out of order.
      const last = new Map<number, IndexedPart>();
      for (const p of parts) {
        last.delete(p.record.id);
        last.set(p.record.id, p);
      }
      const lanes: BulkItem[][] = Array.from({ length: BULK_LANES }, () => []);
      for (const p of last.values()) {
        try {
          const id = p.record.id;
          const doc = JSON.stringify(partDocument(p.record, p.embedding, withVectors));
          const hash = docHash(doc);
          seen.add(id);
          // Unchanged since the base, and not written earlier in this load (a later duplicate may differ).
          if (base && !sent.has(id) && base.hashes.get(id) === hash) continue;
          sent.add(id);
          const action = JSON.stringify({ index: { _id: String(id) } });
          const lines = `${action}\n${doc.slice(0, -1)},"${DOC_HASH_FIELD}":"${hash}"}\n`;
          lanes[id % BULK_LANES]!.push({ part: p, lines });
        } catch (e) {
          failures.push(failure(p, `not serialisable: ${(e as Error).message}`));
        }
      }
      const laneFailures = await Promise.all(lanes.filter((l) => l.length > 0).map(sendWithRetries));
      failures.push(...laneFailures.flat());
      // A part that failed is not in the version: not even as the base's copy of it (unless a later
      // record of it is written).
      if (base) {
        const bad = new Set(failures.map((f) => f.id));
        for (const id of last.keys()) {
          if (bad.has(id) && base.hashes.has(id)) failed.add(id);
          else failed.delete(id);
        }
      }
      // As in the SQLite adapter: a batch in which every record fails is a systemic problem.
      if (parts.length > 0 && failures.length === last.size) {
        const sample = failures.slice(0, 3).map((f) => `${f.manufacturer} ${f.mpn} (id ${f.id}): ${f.reason}`);
        throw new Error(`every record of the batch was rejected by ${version}: ${sample.join('; ')}${failures.length > 3 ? '; ...' : ''}`);
      }
      return failures;
    },

    async countsBy(field) {
      assertLoading();
      await client.send({ method: 'POST', path: `/${version}/_refresh` });
      const path = field === 'category' ? 'category.slug' : 'manufacturer.slug';
      const counts = new Map<string, number>();
      let after: unknown;
      for (;;) {
        const composite: Record<string, unknown> = { size: 1000, sources: [{ k: { terms: { field: path } } }] };
        if (after) composite.after = after;
        const r = await client.send<{ aggregations: { c: { buckets: { key: { k: string }; doc_count: number }[]; after_key?: unknown } } }>({
          method: 'POST',
          path: `/${version}/_search`,
          body: { size: 0, track_total_hits: false, aggs: { c: { composite } } },
        });
        const c = r.aggregations.c;
        for (const b of c.buckets) counts.set(b.key.k, b.doc_count);
        if (!c.after_key || c.buckets.length === 0) break;
        after = c.after_key;
      }
      return counts;
    },

    async finish(meta: CatalogMeta, expected: number) {
      assertLoading();
      // A derived version drops the base's parts this dump does not hold (or failed to write).
      const dropped = base ? [...base.hashes.keys()].filter((id) => !seen.has(id) || failed.has(id)) : [];
      await deleteDocuments(dropped);
      await client.send({ method: 'POST', path: `/${version}/_refresh` });
      const counted = await client.send<{ count: number; _shards?: { total?: number; failed?: number } }>({ method: 'GET', path: `/${version}/_count` });
      const { count } = counted;
      if ((counted._shards?.failed ?? 0) > 0) {
        throw new Error(
          `index version ${version} could not be counted (${counted._shards!.failed} of ${counted._shards!.total} shards failed); the live version is unchanged`,
        );
      }
      if (count !== expected) {
        throw new Error(`index version ${version} holds ${count} parts, expected ${expected}; the live version is unchanged`);
      }
      // A derived version that changed little keeps its segments: merging them would index its vectors again.
      const merge = base && sent.size + dropped.length <= DERIVED_MERGE_SHARE * count ? 0 : (opts.mergeSegments ?? 0);
      if (merge > 0) await mergeSegments(client, version, merge);
      await client.send({ method: 'PUT', path: `/${version}/_settings`, body: { index: partsServingSettings(ctx.layout) } });
      // Every copy the cluster can place, active, before the alias sends searches here.
      await waitForCopies(client, version, ctx.layout.healthTimeoutMs);
      await client.send({
        method: 'PUT',
        path: `/${names.meta}/_doc/${encodeURIComponent(version)}`,
        query: { refresh: 'true' },
        body: { kind: 'catalog_meta', version, updated_at: new Date().toISOString(), meta: { ...meta, version } },
      });
      const before = await pointers(client, names);
      await swapAlias(client, names, before.live, version);
      await writePointers(client, names, version, before.live);
      state = 'finished';
      // Keep the version that was live; drop every older one (and leftovers of failed loads).
      const stale = before.versions.filter((v) => v.seq < seq && v.name !== before.live);
      for (const v of stale) {
        try {
          await deleteIndex(client, v.name);
          await client.request({ method: 'DELETE', path: `/${names.meta}/_doc/${encodeURIComponent(v.name)}`, allow: [404] });
        } catch {
          // Cleanup is retried by the next finish; the swap has happened either way.
        }
      }
      return { version, count };
    },

    async abort() {
      if (state === 'finished') return;
      state = 'aborted';
      const live = (await pointers(client, names)).live;
      if (live === version) return;
      await deleteIndex(client, version);
      await client.request({ method: 'DELETE', path: `/${names.meta}/_doc/${encodeURIComponent(version)}`, allow: [404] });
    },
  };
}
