/**
 * Index versions, the live alias and the engine state.
 *
 * Names: versions `<prefix>-parts-v<N>`, alias `<prefix>-parts` (the live version), meta index
 * `<prefix>-meta`. A version string is the index name.
 *
 * The alias is the truth for which version is live. The state document in the meta index keeps
 * the version counter and the live/previous pair as of the last swap; it is written after each
 * swap, so if a process dies between the two, `previous` is still derived correctly (see
 * `pointers`). Every swap is one `_aliases` call whose `remove` carries `must_exist`, so it also
 * fails - and changes nothing - when another process swapped first.
 */
import { OpenSearchError, type OsClient } from './client.ts';

export interface IndexNames {
  alias: string;
  meta: string;
  /** Wildcard over every version. */
  pattern: string;
  version(n: number): string;
  /** N of a version index name, or null for other names. */
  seq(name: string): number | null;
}

export function indexNames(prefix: string): IndexNames {
  const alias = `${prefix}-parts`;
  const re = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-parts-v(\\d+)$`);
  return {
    alias,
    meta: `${prefix}-meta`,
    pattern: `${alias}-v*`,
    version: (n) => `${alias}-v${n}`,
    seq(name) {
      const m = re.exec(name);
      return m ? Number(m[1]) : null;
    },
  };
}

export const STATE_ID = 'engine-state';

export interface EngineState {
  seq: number;
  live: string | null;
  previous: string | null;
}

export async function readState(client: OsClient, n: IndexNames): Promise<EngineState> {
  const doc = await client.request<{ _source: Partial<EngineState> }>({
    method: 'GET',
    path: `/${n.meta}/_doc/${STATE_ID}`,
    allow: [404],
  });
  const s = doc?._source ?? {};
  return { seq: s.seq ?? 0, live: s.live ?? null, previous: s.previous ?? null };
}

export async function writePointers(client: OsClient, n: IndexNames, live: string | null, previous: string | null): Promise<void> {
  await client.send({
    method: 'POST',
    path: `/${n.meta}/_update/${STATE_ID}`,
    query: { refresh: 'true', retry_on_conflict: 5 },
    body: {
      doc: { live, previous, updated_at: new Date().toISOString() },
      upsert: { kind: 'engine_state', seq: 0, live, previous, updated_at: new Date().toISOString() },
    },
  });
}

/** Raises the stored counter to at least `seq`. */
export async function bumpSeq(client: OsClient, n: IndexNames, seq: number): Promise<void> {
  await client.send({
    method: 'POST',
    path: `/${n.meta}/_update/${STATE_ID}`,
    query: { refresh: 'true', retry_on_conflict: 5 },
    body: {
      script: {
        lang: 'painless',
        source: 'if (ctx._source.seq == null || ctx._source.seq < params.seq) { ctx._source.seq = params.seq } else { ctx.op = "noop" }',
        params: { seq },
      },
      upsert: { kind: 'engine_state', seq, live: null, previous: null, updated_at: new Date().toISOString() },
    },
  });
}

export interface VersionIndex {
  name: string;
  seq: number;
  live: boolean;
}

/** Every version index, oldest first, and whether it holds the alias. */
export async function listVersions(client: OsClient, n: IndexNames): Promise<VersionIndex[]> {
  const r = await client.send<{ indices: { name: string; aliases?: string[] }[] }>({
    method: 'GET',
    path: `/_resolve/index/${encodeURIComponent(n.pattern)}`,
  });
  const out: VersionIndex[] = [];
  for (const i of r.indices ?? []) {
    const seq = n.seq(i.name);
    if (seq !== null) out.push({ name: i.name, seq, live: (i.aliases ?? []).includes(n.alias) });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/**
 * The index the alias points to, or null when nothing is live. `local`: from the cluster state of the
 * node asked, without the elected cluster manager (searches' reads: they go on while a new one is
 * elected after a node loss; a swap is acknowledged once every node applied it).
 */
export async function liveIndex(client: OsClient, n: IndexNames, opts: { local?: boolean } = {}): Promise<string | null> {
  const r = await client.request<Record<string, unknown>>({
    method: 'GET',
    path: `/_alias/${n.alias}`,
    query: opts.local ? { local: 'true' } : undefined,
    allow: [404],
  });
  const names = Object.keys(r ?? {});
  if (names.length > 1) throw new Error(`alias ${n.alias} points to ${names.length} indices (${names.join(', ')}); expected one`);
  return names[0] ?? null;
}

export interface Pointers {
  live: string | null;
  previous: string | null;
  state: EngineState;
  versions: VersionIndex[];
}

/**
 * Live from the alias; previous from the state document: normally `state.previous`, but when the
 * alias no longer points at `state.live` (a swap whose state write did not happen), `state.live`
 * is the one that was live before. Only an existing index counts.
 */
export async function pointers(client: OsClient, n: IndexNames): Promise<Pointers> {
  const [versions, state] = await Promise.all([listVersions(client, n), readState(client, n)]);
  const holders = versions.filter((v) => v.live);
  if (holders.length > 1) throw new Error(`alias ${n.alias} points to ${holders.length} indices; expected one`);
  const live = holders[0]?.name ?? null;
  const candidate = state.live !== null && state.live !== live ? state.live : state.previous;
  const previous = candidate && candidate !== live && versions.some((v) => v.name === candidate) ? candidate : null;
  return { live, previous, state, versions };
}

/**
 * Points the alias at `to` in one `_aliases` call (removing it from `from`). When the call fails
 * ambiguously (e.g. the connection dropped after OpenSearch applied it), the alias is read back.
 */
export async function swapAlias(client: OsClient, n: IndexNames, from: string | null, to: string): Promise<void> {
  const actions: unknown[] = [];
  if (from) actions.push({ remove: { index: from, alias: n.alias, must_exist: true } });
  actions.push({ add: { index: to, alias: n.alias } });
  try {
    await client.send({ method: 'POST', path: '/_aliases', body: { actions } });
  } catch (e) {
    const now = await liveIndex(client, n).catch(() => undefined);
    if (now === to) return;
    if (e instanceof OpenSearchError && e.type === 'aliases_not_found_exception') {
      throw new Error(`alias ${n.alias} no longer points to ${from} (now ${now ?? 'nothing'}); another process swapped it`);
    }
    throw e;
  }
}

export async function deleteIndex(client: OsClient, name: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `/${encodeURIComponent(name)}`, allow: [404] });
}
