/**
 * Faults on a real three-node OpenSearch cluster (scripts/opensearch.sh start --nodes 3 --port 9301,
 * OPENSEARCH_CLUSTER_URL naming the nodes) behind two real API processes sharing Redis:
 *  1. under search load on both APIs, the elected cluster manager is killed (SIGKILL): every request
 *     answers 200 with the same body as before the loss (the API retries inside; callers retry
 *     nothing). The second API knows only the killed node and found the others by sniffing;
 *  2. the node comes back: the cluster heals to green, every shard copy active;
 *  3. an ingest runs while the node holding a primary of the new version is killed (and brought back
 *     a few seconds later): it completes with every part, or fails leaving the previous version live
 *     whole - never a partial version live. The APIs keep answering meanwhile.
 * The parts index has two shards and one replica. Data: the generated sample catalogue (4,000 parts
 * live; 12,000 for the ingest), so nothing outside the project is needed.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest, type IngestSummary } from '../../ingest/pipeline.ts';
import { createRedisAccountStore } from '../../src/accounts/index.ts';
import type { AccountStore } from '../../src/accounts/port.ts';
import { purgeRedisPrefix } from '../../src/redis/connection.ts';
import { createOpenSearchEngine } from '../../src/engines/opensearch/engine.ts';
import { connectionFromUrl, type OpenSearchIndexLayout } from '../../src/engines/opensearch/options.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { noteSkip, tempDir } from '../support/fixtures.ts';
import { redisProcessEnv, spawnPartsearch, stop, waitUp } from '../support/processes.ts';
import { CLUSTER_URLS, clusterManager, clusterNodes, getJson, health, killNode, restartMissingNodes, type ClusterNode } from './support.ts';

const REDIS_URL = process.env.REDIS_URL;
const ready = CLUSTER_URLS.length >= 3 && !!REDIS_URL;
if (!ready) noteSkip('cluster fault suite', 'OPENSEARCH_CLUSTER_URL (three nodes) and REDIS_URL are not both set');

const LAYOUT: OpenSearchIndexLayout = { shards: 2, replicas: '1', healthTimeoutMs: 180_000 };
const PREFIX = `pstest-cluster-${process.pid}`;
/** Parts live before the ingest; the ingest loads three times as many. */
const SAMPLE = 4000;

interface LoadReport {
  requests: number;
  /** Requests that did not answer 200, or got no answer: status or error code -> count. */
  failed: Record<string, number>;
  /** 200 answers whose body differs from the one before the fault. */
  changed: number;
  /** Requests sent after `mark` was called, and their latencies. */
  afterMark: number;
  latencyAfterMark: number[];
  byApi: number[];
}

/** Closed-loop load of `concurrency` clients over both APIs, each request's body checked against `expected` when given. */
function searchLoad(apis: string[], paths: string[], expected: Map<string, string> | null, headers: Record<string, string>, concurrency: number) {
  const report: LoadReport = { requests: 0, failed: {}, changed: 0, afterMark: 0, latencyAfterMark: [], byApi: apis.map(() => 0) };
  let running = true;
  let marked = false;
  let next = 0;
  const worker = async () => {
    while (running) {
      const i = next++;
      const p = paths[i % paths.length]!;
      const api = i % apis.length;
      const t0 = performance.now();
      const after = marked;
      try {
        const r = await fetch(`${apis[api]}${p}`, { headers, signal: AbortSignal.timeout(60_000) });
        const body = await r.text();
        if (r.status !== 200) report.failed[r.status] = (report.failed[r.status] ?? 0) + 1;
        else if (expected && body !== expected.get(p)) report.changed++;
      } catch (e) {
        const code = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
        report.failed[code] = (report.failed[code] ?? 0) + 1;
      }
      report.requests++;
      report.byApi[api]!++;
      if (after) {
        report.afterMark++;
        report.latencyAfterMark.push(performance.now() - t0);
      }
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, worker));
  return {
    report,
    mark: () => void (marked = true),
    stop: async () => {
      running = false;
      await done;
      return report;
    },
  };
}

const pct = (xs: number[], q: number) => (xs.length ? Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!) : 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!ready)('a three-node cluster with one replica, two API processes on Redis', () => {
  const dir = tempDir('pstest-cluster-');
  const redisPrefix = `pstest-cluster-${process.pid}:`;
  const pepper = 'cluster-fault-suite';
  const procs: ChildProcess[] = [];
  const apis: string[] = [];
  const paths: string[] = [];
  const expected = new Map<string, string>();
  let headers: Record<string, string>;
  let store: AccountStore;
  let engine: SearchEngine;
  let files: Awaited<ReturnType<typeof writeSampleCatalogue>>;
  let bigParts: string;
  let heapMb = 512;
  let killed: ClusterNode | null = null;

  beforeAll(async () => {
    const h = await health('green', CLUSTER_URLS.length, 120);
    if (h.timed_out) throw new Error(`the cluster at ${CLUSTER_URLS.join(',')} is not green with ${CLUSTER_URLS.length} nodes: ${JSON.stringify(h)}`);
    files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: SAMPLE });
    // The sample three times, the copies under MPNs of their own.
    const lines = fs.readFileSync(files.partsFile, 'utf8').trimEnd().split('\n');
    bigParts = path.join(dir, 'big.jsonl');
    const copy = (suffix: string) => lines.map((l) => JSON.stringify({ ...JSON.parse(l), mpn: `${JSON.parse(l).mpn}${suffix}` }));
    fs.writeFileSync(bigParts, [...lines, ...copy('-C1'), ...copy('-C2')].join('\n') + '\n');

    engine = createOpenSearchEngine({ connection: connectionFromUrl(CLUSTER_URLS.join(',')), prefix: PREFIX, layout: LAYOUT });
    await engine.init();
    await runIngest({
      engine,
      embedder: null,
      parts: [files.partsFile],
      manufacturersFile: files.manufacturersFile,
      categoriesFile: files.categoriesFile,
      reportFile: path.join(dir, 'report-1.jsonl'),
    });

    store = createRedisAccountStore({ url: REDIS_URL!, pepper: Buffer.from(pepper), prefix: redisPrefix });
    const account = await store.createAccount({ name: 'cluster-load', subscription: true, credit_micros: 1e9 });
    const key = await store.createKey({ account_id: account.id, name: 'load', capabilities: ['parts:read'], rate_limit_per_minute: 1_000_000 });
    headers = { Authorization: `Bearer ${key.secret}` };

    // API A knows every node; API B only the node that is killed first, and finds the others by sniffing.
    const manager = await clusterManager();
    const base = 20000 + (process.pid % 10000);
    for (const [i, nodes, sniff] of [
      [0, CLUSTER_URLS.join(','), 'false'],
      [1, manager.url, 'true'],
    ] as const) {
      const port = base + i * 7;
      procs.push(
        spawnPartsearch(['serve'], {
          ...redisProcessEnv({ dir, prefix: redisPrefix, pepper, port }),
          SEARCH_ENGINE: 'opensearch',
          OPENSEARCH_URL: nodes,
          OPENSEARCH_SNIFF: sniff,
          OPENSEARCH_INDEX_PREFIX: PREFIX,
          MONTHLY_REQUEST_CAP: '1000000000',
          JOB_WORKERS: '0',
        }),
      );
      apis.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(apis.map(waitUp));

    const sample = fs.readFileSync(files.partsFile, 'utf8').trimEnd().split('\n');
    for (let i = 0; i < sample.length; i += 100) paths.push(`/v1/parts/search?mpn=${encodeURIComponent(JSON.parse(sample[i]!).mpn)}`);
    for (const q of [
      'ceramic capacitor 100nF 0603',
      'low dropout regulator 3.3V',
      'n-channel mosfet',
      'schottky diode',
      'op amp rail to rail',
      'usb connector',
    ])
      paths.push(`/v1/parts/agentic-search?search_query=${encodeURIComponent(q)}&limit=10`);
    for (const p of paths) {
      const [a, b] = await Promise.all(apis.map((api) => fetch(`${api}${p}`, { headers }).then(async (r) => ({ status: r.status, body: await r.text() }))));
      expect(a!.status).toBe(200);
      expect(b).toEqual(a);
      expected.set(p, a!.body);
    }
    expect(JSON.parse(expected.get(paths[0]!)!).hits).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await Promise.all(procs.map(stop));
    await store?.close();
    if (REDIS_URL) await purgeRedisPrefix(REDIS_URL, redisPrefix);
    await engine?.close();
    // Every node back (a failed test may have left one down), then this suite's indexes gone.
    if ((await clusterNodes().catch(() => [])).length < CLUSTER_URLS.length) await restartMissingNodes(heapMb).catch(() => undefined);
    for (const u of CLUSTER_URLS) if ((await fetch(`${u}/${PREFIX}-*`, { method: 'DELETE' }).catch(() => null))?.ok) break;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every search, unchanged, while the cluster manager is killed under load', async () => {
    const victim = await clusterManager();
    heapMb = victim.heapMb;
    const load = searchLoad(apis, paths, expected, headers, 8);
    await sleep(3000);
    load.mark();
    killNode(victim);
    killed = victim;
    await sleep(12_000);
    const r = await load.stop();
    const after = await clusterNodes();
    console.log(
      `[cluster] node loss under load: ${r.requests} requests (${r.byApi.join(' + ')} per API), ${r.afterMark} after the kill of ${victim.name}` +
        ` (p50 ${pct(r.latencyAfterMark, 0.5)} ms, p99 ${pct(r.latencyAfterMark, 0.99)} ms, max ${pct(r.latencyAfterMark, 1)} ms); failed ${JSON.stringify(r.failed)}, changed ${r.changed}`,
    );
    expect(after.map((n) => n.name)).not.toContain(victim.name);
    expect(r.failed).toEqual({});
    expect(r.changed).toBe(0);
    expect(r.afterMark).toBeGreaterThan(50);
  });

  it('heals when the node comes back: green, every shard copy active, the same answers', async () => {
    expect(killed).not.toBeNull();
    const t0 = Date.now();
    await restartMissingNodes(heapMb);
    const h = await health('green', CLUSTER_URLS.length, 120);
    console.log(`[cluster] ${killed!.name} back and the cluster green after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    expect(h).toMatchObject({ timed_out: false, status: 'green', number_of_nodes: CLUSTER_URLS.length, unassigned_shards: 0, initializing_shards: 0 });
    for (const p of paths.slice(0, 10)) for (const api of apis) expect(await fetch(`${api}${p}`, { headers }).then((x) => x.text())).toBe(expected.get(p));
  });

  it('runs an ingest across the loss of a node holding a new primary: all parts live, or the previous version live whole', async () => {
    const before = await engine.info();
    expect(before.parts).toBe(SAMPLE);
    // The swap changes answers (the copies' MPNs extend the sample's): statuses only.
    const load = searchLoad(apis, paths, null, headers, 2);
    const lost: { node?: Promise<ClusterNode | null> } = {};
    const loseAPrimary = async (): Promise<ClusterNode | null> => {
      const shards = await getJson<{ index: string; prirep: string; state: string; node: string | null }[]>(
        CLUSTER_URLS,
        `/_cat/shards/${PREFIX}-parts-v*?format=json`,
      );
      const newest = shards
        .map((s) => s.index)
        .sort((a, b) => Number(a.split('-v').pop()) - Number(b.split('-v').pop()))
        .pop();
      const holder = shards.find((s) => s.index === newest && s.index !== before.version && s.prirep === 'p' && s.state === 'STARTED')?.node;
      const node = (await clusterNodes()).find((n) => n.name === holder);
      if (!node) return null;
      killNode(node);
      await sleep(5000);
      await restartMissingNodes(node.heapMb);
      return node;
    };
    const outcome = await runIngest({
      engine,
      embedder: null,
      parts: [bigParts],
      manufacturersFile: files.manufacturersFile,
      categoriesFile: files.categoriesFile,
      reportFile: path.join(dir, 'report-2.jsonl'),
      batchSize: 500,
      progress: { update: (s) => void (s.indexed >= SAMPLE * 0.75 && (lost.node ??= loseAPrimary())), done: () => undefined },
    }).then(
      (s: IngestSummary) => ({ ok: true as const, summary: s }),
      (e: unknown) => ({ ok: false as const, error: e as Error }),
    );
    const victim = (await lost.node) ?? null;
    await health('green', CLUSTER_URLS.length, 120);
    const r = await load.stop();
    const info = await engine.info();
    console.log(
      `[cluster] ingest of ${3 * SAMPLE} parts with ${victim?.name ?? 'no node'} killed at ${SAMPLE * 0.75}: ` +
        (outcome.ok
          ? `completed, ${outcome.summary.indexed} parts live in ${outcome.summary.version}`
          : `failed cleanly (${outcome.error.message}); ${info.version} live`) +
        `; searches meanwhile: ${r.requests}, failed ${JSON.stringify(r.failed)}`,
    );
    expect(victim).not.toBeNull();
    if (outcome.ok) {
      expect(outcome.summary.indexed).toBe(3 * SAMPLE);
      expect(info).toMatchObject({ version: outcome.summary.version, parts: 3 * SAMPLE, previous: before.version });
    } else {
      expect(info).toMatchObject({ version: before.version, parts: SAMPLE });
    }
    const versions = await getJson<{ indices: { name: string; aliases?: string[] }[] }>(CLUSTER_URLS, `/_resolve/index/${PREFIX}-parts-v*`);
    expect(versions.indices.filter((i) => i.aliases?.includes(`${PREFIX}-parts`)).map((i) => i.name)).toEqual([info.version]);
    expect(r.failed).toEqual({});
  });
});
