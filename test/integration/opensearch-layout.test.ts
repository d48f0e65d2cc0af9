/**
 * Shards, replicas and the health a load waits for, against a real OpenSearch node (OPENSEARCH_URL):
 * a version with the configured layout goes live once every copy the cluster can place is active
 * (on one node: the primaries, a replica having nowhere to go); copies that cannot be placed end the
 * wait after the health time limit, saying why.
 * On several nodes: test/cluster/.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { createClient } from '../../src/engines/opensearch/client.ts';
import { createOpenSearchEngine } from '../../src/engines/opensearch/engine.ts';
import { waitForCopies } from '../../src/engines/opensearch/health.ts';
import { searchMpn } from '../../src/search/mpn.ts';
import { noteSkip, SMALL, tempDir } from '../support/fixtures.ts';

const URL = process.env.OPENSEARCH_URL;
if (!URL) noteSkip('OpenSearch layout tests', 'OPENSEARCH_URL is not set');

describe.skipIf(!URL)('OpenSearch index layout', () => {
  const prefix = `pstest-layout-${process.pid}-${Date.now().toString(36)}`;
  const client = URL ? createClient(URL) : null;
  afterAll(async () => {
    await client?.request({ method: 'DELETE', path: `/${prefix}-*`, allow: [404] });
    client?.close();
  });

  const ingest = (engine: ReturnType<typeof createOpenSearchEngine>) =>
    runIngest({ engine, embedder: null, parts: [SMALL.parts], manufacturersFile: SMALL.manufacturers, reportFile: path.join(tempDir(), 'r.jsonl') });

  it('loads a version with the configured shards and replicas, live once its placeable copies are active', async () => {
    const engine = createOpenSearchEngine({ url: URL!, prefix, layout: { shards: 3, replicas: '1', healthTimeoutMs: 60_000 } });
    try {
      const s = await ingest(engine);
      const settings = await client!.send<
        Record<string, { settings: { index: { number_of_shards: string; number_of_replicas: string; auto_expand_replicas?: string } } }>
      >({
        method: 'GET',
        path: `/${s.version}/_settings`,
      });
      expect(settings[s.version]!.settings.index).toMatchObject({ number_of_shards: '3', number_of_replicas: '1', auto_expand_replicas: 'false' });
      expect(await engine.info()).toMatchObject({ version: s.version, parts: s.indexed });
      // Every shard answers: an MPN search finds its part.
      expect((await searchMpn(engine, 'LM358DR', { limit: 3 }))[0]).toMatchObject({ tier: 'exact' });
    } finally {
      await engine.close();
    }
  });

  it('gives up waiting for copies that cannot be placed after the time limit, saying what is missing and why', async () => {
    // An index no node may hold: the wait the load does before its swap (which then fails, the live version unchanged).
    const index = `${prefix}-unplaceable`;
    await client!.send({
      method: 'PUT',
      path: `/${index}`,
      query: { wait_for_active_shards: '0' },
      body: { settings: { index: { number_of_shards: 1, number_of_replicas: 0, 'routing.allocation.require._name': 'no-such-node' } } },
    });
    const started = Date.now();
    const e = (await waitForCopies(client!, index, 1500).catch((x: unknown) => x)) as Error;
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(e.message).toMatch(
      new RegExp(
        `^index version ${index} has 0 of the 1 shard copies it needs active \\(primaries 0/1, 0 replicas, \\d+ data nodes?\\) after 2 s \\((.+)\\); the live version is unchanged$`,
      ),
    );
    expect(e.message).toMatch(/no-such-node|allocat/i);
  });
});
