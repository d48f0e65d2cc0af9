/**
 * The three-node cluster against a single node, in one run:
 *   1. MPN search p50 through the service (candidates, then records) on the cluster (every node
 *      given, one replica) and on a single node (same heap, same artefacts), same parts, alternating
 *      rounds (mpn-rounds.ts): the ratio cluster / single node (goal <= 1.3);
 *   2. throughput of real `partsearch serve` processes on the cluster: one API process, then two
 *      (the same number of keep-alive clients split over both), MPN search; requests/s, and the CPU
 *      each tier spent per request (API processes, OpenSearch nodes; from /proc, less what they spend
 *      idle, measured first), for the capacity model in the README;
 *   3. the size of the loaded version (store bytes per part, primaries).
 *
 *   OPENSEARCH_URL=http://127.0.0.1:9310 OPENSEARCH_CLUSTER_URL=http://127.0.0.1:9301,http://127.0.0.1:9302,http://127.0.0.1:9303 \
 *     REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/cluster.ts [--parts FILE] [--rounds 10] [--calls 150] [--seconds 8]
 *
 * OPENSEARCH_URL names the single node (e.g. `scripts/opensearch.sh start --port 9310 --heap 512m`),
 * OPENSEARCH_CLUSTER_URL the cluster (`start --nodes 3 --port 9301 --heap 512m`). Loads FILE
 * (default: the 29k real parts, lexical-only) into each under a prefix of its own, dropped at the
 * end. Result: bench/results/cluster.json and stdout.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRedisAccountStore } from '../src/accounts/index.ts';
import { purgeRedisPrefix } from '../src/redis/connection.ts';
import { createOpenSearchEngine } from '../src/engines/opensearch/engine.ts';
import { connectionFromUrl } from '../src/engines/opensearch/options.ts';
import { redisProcessEnv, spawnPartsearch, stop, waitUp } from '../test/support/processes.ts';
import { runLoadInChild } from './load.ts';
import { alternateRounds, CATALOG, dropPrefix, loadCatalogue, mpnSearchOn, pickMpns } from './mpn-rounds.ts';

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: path.join(CATALOG, 'parts.jsonl.gz') },
    rounds: { type: 'string', default: '12' },
    calls: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '16' },
  },
});
const single = process.env.OPENSEARCH_URL;
const clusterUrls = (process.env.OPENSEARCH_CLUSTER_URL ?? '').split(',').filter(Boolean);
const redisUrl = process.env.REDIS_URL;
if (!single || clusterUrls.length < 2 || !redisUrl) throw new Error('set OPENSEARCH_URL (single node), OPENSEARCH_CLUSTER_URL (the cluster) and REDIS_URL');
if (!fs.existsSync(values.parts)) {
  console.log(`[skip] no catalogue at ${values.parts}`);
  process.exit(0);
}

const prefix = `bench-cluster-${process.pid}`;
const load0 = os.loadavg()[0]!;
const layout = { shards: 1, replicas: '1', healthTimeoutMs: 600_000 };
const onSingle = createOpenSearchEngine({ url: single, prefix });
const onCluster = createOpenSearchEngine({ connection: connectionFromUrl(clusterUrls.join(',')), prefix, layout });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psbench-cluster-'));
const redisPrefix = `${prefix}:`;
const procs: ChildProcess[] = [];

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

async function nodePids(): Promise<number[]> {
  const r = (await (await fetch(`${clusterUrls[0]}/_nodes/process`)).json()) as { nodes: Record<string, { process: { id: number } }> };
  return Object.values(r.nodes).map((n) => n.process.id);
}

async function storeStats(url: string, index: string): Promise<{ primaries_bytes: number; total_bytes: number }> {
  const r = (await (await fetch(`${url}/${index}/_stats/store`)).json()) as {
    _all: { primaries: { store: { size_in_bytes: number } }; total: { store: { size_in_bytes: number } } };
  };
  return { primaries_bytes: r._all.primaries.store.size_in_bytes, total_bytes: r._all.total.store.size_in_bytes };
}

try {
  const [s, c] = [await loadCatalogue(onSingle, values.parts), await loadCatalogue(onCluster, values.parts)];
  const mpns = await pickMpns(values.parts, 200);
  const rounds = await alternateRounds(
    [
      { name: 'single_node', search: mpnSearchOn(onSingle) },
      { name: 'cluster', search: mpnSearchOn(onCluster) },
    ],
    mpns,
    Number(values.rounds),
    Number(values.calls),
  );
  const live = (await onCluster.info()).version!;
  const size = await storeStats(clusterUrls[0]!, live);

  // Throughput of API processes on the cluster.
  const store = createRedisAccountStore({ url: redisUrl, pepper: Buffer.from('bench'), prefix: redisPrefix });
  const account = await store.createAccount({ name: 'bench', subscription: true, credit_micros: 1e12 });
  const { secret } = await store.createKey({ account_id: account.id, name: 'bench', capabilities: ['parts:read'], rate_limit_per_minute: 1_000_000_000 });
  await store.close();
  const apis: string[] = [];
  for (const i of [0, 1]) {
    const port = 21000 + (process.pid % 5000) + i * 7;
    procs.push(
      spawnPartsearch(['serve'], {
        ...redisProcessEnv({ dir, prefix: redisPrefix, pepper: 'bench', port }),
        SEARCH_ENGINE: 'opensearch',
        OPENSEARCH_URL: clusterUrls.join(','),
        OPENSEARCH_INDEX_PREFIX: prefix,
        MONTHLY_REQUEST_CAP: '1000000000',
        JOB_WORKERS: '0',
      }),
    );
    apis.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all(apis.map(waitUp));
  const paths = mpns.map((m) => `/v1/parts/search?mpn=${encodeURIComponent(m)}`);
  const headers = { Authorization: `Bearer ${secret}` };
  const conc = Number(values.concurrency);
  const seconds = Number(values.seconds);
  for (const api of apis) await runLoadInChild({ url: api, paths, headers, concurrency: 4, seconds: 2 }); // warm-up
  const osPids = await nodePids();
  const used = (pids: number[], was: number[]) => pids.reduce((a, pid, i) => a + cpuSeconds(pid) - was[i]!, 0);
  // What the processes spend idle (cluster coordination, timers) is not the requests' cost: measured
  // for a few seconds without load and taken off each phase's CPU.
  const idleApi = procs.map((p) => cpuSeconds(p.pid!));
  const idleOs = osPids.map(cpuSeconds);
  const idleStart = performance.now();
  await new Promise((r) => setTimeout(r, 5000));
  const idleSeconds = (performance.now() - idleStart) / 1000;
  const idleRate = {
    api:
      used(
        procs.map((p) => p.pid!),
        idleApi,
      ) /
      idleSeconds /
      procs.length,
    os: used(osPids, idleOs) / idleSeconds,
  };
  const phase = async (n: 1 | 2) => {
    const apiPids = procs.slice(0, n).map((p) => p.pid!);
    const before = { api: apiPids.map(cpuSeconds), os: osPids.map(cpuSeconds) };
    const t0 = performance.now();
    const runs = await Promise.all(apis.slice(0, n).map((url) => runLoadInChild({ url, paths, headers, concurrency: conc / n, seconds })));
    const elapsed = (performance.now() - t0) / 1000;
    const requests = runs.reduce((a, r) => a + r.requests, 0);
    const failed = runs.reduce((a, r) => a + r.requests - (r.statuses[200] ?? 0) + Object.values(r.errors).reduce((x, y) => x + y, 0), 0);
    return {
      api_processes: n,
      clients: conc,
      rps: Math.round(runs.reduce((a, r) => a + r.rps, 0)),
      p50_ms: +(runs.reduce((a, r) => a + r.p50ms, 0) / n).toFixed(2),
      failed,
      api_cpu_ms_per_request: +((Math.max(0, used(apiPids, before.api) - idleRate.api * n * elapsed) * 1000) / requests).toFixed(3),
      opensearch_cpu_ms_per_request: +((Math.max(0, used(osPids, before.os) - idleRate.os * elapsed) * 1000) / requests).toFixed(3),
    };
  };
  const throughput = [await phase(1), await phase(2), await phase(1), await phase(2)];
  const result = {
    command:
      'OPENSEARCH_URL=http://127.0.0.1:9310 OPENSEARCH_CLUSTER_URL=http://127.0.0.1:9301,http://127.0.0.1:9302,http://127.0.0.1:9303 REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/cluster.ts',
    date: new Date().toISOString(),
    parts: c.parts,
    load_seconds: { single_node: +s.seconds.toFixed(1), cluster: +c.seconds.toFixed(1) },
    cluster: { nodes: clusterUrls.length, shards: layout.shards, replicas: 1 },
    mpn: { ...rounds, cluster_over_single: rounds.ratio_to_first.cluster, goal: 'cluster_over_single <= 1.3' },
    idle_cpu_cores: { per_api_process: +idleRate.api.toFixed(3), opensearch_nodes: +idleRate.os.toFixed(3) },
    throughput,
    two_over_one_api: +(((throughput[1]!.rps + throughput[3]!.rps) / (throughput[0]!.rps + throughput[2]!.rps)) as number).toFixed(3),
    version_store: { ...size, bytes_per_part_primary: Math.round(size.primaries_bytes / c.parts) },
    cpus: os.cpus().length,
    loadavg: [+load0.toFixed(2), +os.loadavg()[0]!.toFixed(2)],
  };
  const { by_round, ...mpnSummary } = result.mpn;
  console.log(JSON.stringify({ ...result, mpn: mpnSummary }, null, 2));
  fs.writeFileSync(path.join(import.meta.dirname, 'results', 'cluster.json'), JSON.stringify({ ...result, mpn: { ...mpnSummary, by_round } }, null, 2) + '\n');
} finally {
  await Promise.all(procs.map(stop));
  await purgeRedisPrefix(redisUrl, redisPrefix).catch(() => undefined);
  await onSingle.close();
  await onCluster.close();
  await dropPrefix(single, prefix);
  await dropPrefix(clusterUrls[0]!, prefix);
  fs.rmSync(dir, { recursive: true, force: true });
}
