/**
 * The health a loaded version needs before it goes live: every primary active, and as many replicas
 * of each shard as the cluster can place (its replica count, at most one copy per data node: a
 * single node serves a version with one replica configured, yellow). Counted again at every look, so
 * a node that leaves or joins meanwhile changes what is waited for.
 */
import { sleep, type OsClient } from './client.ts';

/** Time between two looks at the copies of a version. */
const POLL_MS = 500;

export interface CopiesState {
  shards: number;
  replicas: number;
  dataNodes: number;
  activePrimaries: number;
  active: number;
  /** Copies that are needed: shards * min(replicas + 1, data nodes). */
  needed: number;
}

export async function copiesState(client: OsClient, index: string): Promise<CopiesState> {
  const [settings, health] = await Promise.all([
    client.send<Record<string, { settings: Record<string, string> }>>({
      method: 'GET',
      path: `/${encodeURIComponent(index)}/_settings/index.number_of_shards,index.number_of_replicas`,
      query: { flat_settings: 'true' },
    }),
    client.send<{ number_of_data_nodes: number; active_primary_shards: number; active_shards: number }>({
      method: 'GET',
      path: `/_cluster/health/${encodeURIComponent(index)}`,
    }),
  ]);
  const s = Object.values(settings)[0]?.settings ?? {};
  const shards = Number(s['index.number_of_shards'] ?? 1);
  const replicas = Number(s['index.number_of_replicas'] ?? 0);
  const dataNodes = health.number_of_data_nodes;
  return {
    shards,
    replicas,
    dataNodes,
    activePrimaries: health.active_primary_shards,
    active: health.active_shards,
    needed: shards * Math.max(1, Math.min(replicas + 1, dataNodes)),
  };
}

/** Why OpenSearch leaves a copy of `index` unassigned (allocation explain), or null. */
async function unassignedReason(client: OsClient, index: string, primary: boolean): Promise<string | null> {
  const r = await client
    .request<{ shard?: number; can_allocate?: string; allocate_explanation?: string; unassigned_info?: { reason?: string } }>({
      method: 'POST',
      path: '/_cluster/allocation/explain',
      body: { index, shard: 0, primary },
      allow: [400, 404],
      retries: 0,
    })
    .catch(() => null);
  if (!r) return null;
  return [r.unassigned_info?.reason, r.allocate_explanation].filter(Boolean).join(': ') || null;
}

/**
 * Resolves once every copy `index` needs is active (see the header); throws after `timeoutMs`, saying
 * what is missing and, when OpenSearch tells, why.
 */
export async function waitForCopies(client: OsClient, index: string, timeoutMs: number): Promise<CopiesState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await copiesState(client, index);
    if (s.activePrimaries === s.shards && s.active >= s.needed) return s;
    if (Date.now() >= deadline) {
      const why = await unassignedReason(client, index, s.activePrimaries < s.shards);
      throw new Error(
        `index version ${index} has ${s.active} of the ${s.needed} shard copies it needs active (primaries ${s.activePrimaries}/${s.shards}, ` +
          `${s.replicas} replica${s.replicas === 1 ? '' : 's'}, ${s.dataNodes} data node${s.dataNodes === 1 ? '' : 's'}) after ${Math.round(timeoutMs / 1000)} s` +
          `${why ? ` (${why})` : ''}; the live version is unchanged`,
      );
    }
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
  }
}
