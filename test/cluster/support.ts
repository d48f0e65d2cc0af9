/**
 * The real OpenSearch cluster of the fault suite: nodes on loopback started by scripts/opensearch.sh
 * (`start --nodes 3 --port 9301`), named by OPENSEARCH_CLUSTER_URL (every node's URL, comma-separated).
 * A node is killed with SIGKILL by its process id (from `_nodes`), and brought back by the same
 * script, which starts only the nodes that are not running.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const CLUSTER_URLS = (process.env.OPENSEARCH_CLUSTER_URL ?? '')
  .split(',')
  .map((u) => u.trim().replace(/\/+$/, ''))
  .filter(Boolean);

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ClusterNode {
  id: string;
  name: string;
  pid: number;
  /** http://127.0.0.1:<port> */
  url: string;
  heapMb: number;
}

/** GET on the first of `urls` that answers (a node may be down). */
export async function getJson<T>(urls: readonly string[], p: string): Promise<T> {
  let last: unknown;
  for (const u of urls) {
    try {
      const r = await fetch(`${u}${p}`, { signal: AbortSignal.timeout(30_000) });
      if (r.ok) return (await r.json()) as T;
      last = new Error(`${u}${p}: ${r.status} ${await r.text()}`);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

export async function clusterNodes(urls = CLUSTER_URLS): Promise<ClusterNode[]> {
  const r = await getJson<{
    nodes: Record<string, { name: string; process: { id: number }; http: { publish_address: string }; jvm: { mem: { heap_max_in_bytes: number } } }>;
  }>(urls, '/_nodes/process,http,jvm');
  return Object.entries(r.nodes)
    .map(([id, n]) => ({
      id,
      name: n.name,
      pid: n.process.id,
      url: `http://${n.http.publish_address.split('/').pop()}`,
      heapMb: Math.round(n.jvm.mem.heap_max_in_bytes / 1048576),
    }))
    .sort((a, b) => (a.url < b.url ? -1 : 1));
}

/** The elected cluster manager. */
export async function clusterManager(urls = CLUSTER_URLS): Promise<ClusterNode> {
  const [m] = await getJson<{ node: string }[]>(urls, '/_cat/cluster_manager?format=json');
  const node = (await clusterNodes(urls)).find((n) => n.name === m!.node);
  if (!node) throw new Error(`no node named ${m!.node}`);
  return node;
}

export function killNode(n: ClusterNode): void {
  process.kill(n.pid, 'SIGKILL');
}

/** Starts the cluster's missing nodes (the script waits until all are in and it is green). */
export async function restartMissingNodes(heapMb: number, urls = CLUSTER_URLS): Promise<void> {
  const port = Math.min(...urls.map((u) => Number(new URL(u).port)));
  await promisify(execFile)(
    'bash',
    [path.join(root, 'scripts', 'opensearch.sh'), 'start', '--nodes', String(urls.length), '--port', String(port), '--heap', `${heapMb}m`],
    {
      timeout: 300_000,
    },
  );
}

export interface Health {
  status: string;
  number_of_nodes: number;
  active_shards: number;
  unassigned_shards: number;
  initializing_shards: number;
  relocating_shards: number;
}

/** Cluster health once `status` and `nodes` are reached (or whatever it is after `seconds`: timed_out). */
export async function health(status: 'green' | 'yellow', nodes: number, seconds = 60, urls = CLUSTER_URLS): Promise<Health & { timed_out: boolean }> {
  const q = `/_cluster/health?wait_for_status=${status}&wait_for_nodes=${nodes}&wait_for_no_initializing_shards=true&timeout=${seconds}s`;
  let last: unknown;
  for (const u of urls) {
    try {
      const r = await fetch(`${u}${q}`, { signal: AbortSignal.timeout((seconds + 30) * 1000) });
      // 408: the wait timed out; the body is the health all the same.
      if (r.ok || r.status === 408) return (await r.json()) as Health & { timed_out: boolean };
      last = new Error(`${u}: ${r.status}`);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}
