/**
 * The official OpenSearch client (@opensearch-project/opensearch, the adapter's way to the cluster)
 * against the node:http transport it replaced (bench/baseline/http-transport.ts), in one run: MPN
 * search p50 through each over the same index, in alternating rounds, and this process's CPU per
 * search. The adapter keeps the official client while it costs at most 20% of MPN p50.
 *
 *   OPENSEARCH_URL=http://127.0.0.1:9200 npx tsx bench/opensearch-client.ts [--parts FILE] [--rounds 12] [--calls 150]
 *
 * Loads FILE (default: the 29k real parts, lexical-only) under a prefix of its own, dropped at the end.
 * Result: bench/results/opensearch-client.json and stdout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createOpenSearchEngine } from '../src/engines/opensearch/engine.ts';
import { createHttpTransport } from './baseline/http-transport.ts';
import { alternateRounds, CATALOG, dropPrefix, loadCatalogue, mpnSearchOn, pickMpns } from './mpn-rounds.ts';

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: path.join(CATALOG, 'parts.jsonl.gz') },
    rounds: { type: 'string', default: '12' },
    calls: { type: 'string', default: '150' },
  },
});
const url = process.env.OPENSEARCH_URL;
if (!url) throw new Error('set OPENSEARCH_URL');
if (!fs.existsSync(values.parts)) {
  console.log(`[skip] no catalogue at ${values.parts}`);
  process.exit(0);
}
const prefix = `bench-client-${process.pid}`;
const load0 = os.loadavg()[0];
const official = createOpenSearchEngine({ url, prefix });
const baseline = createOpenSearchEngine({ url, prefix, client: { transport: createHttpTransport(url) } });
try {
  const loaded = await loadCatalogue(official, values.parts);
  const mpns = await pickMpns(values.parts, 200);
  const r = await alternateRounds(
    [
      { name: 'node_http', search: mpnSearchOn(baseline) },
      { name: 'official_client', search: mpnSearchOn(official) },
    ],
    mpns,
    Number(values.rounds),
    Number(values.calls),
  );
  const result = {
    command: 'OPENSEARCH_URL=http://127.0.0.1:9310 npx tsx bench/opensearch-client.ts',
    date: new Date().toISOString(),
    parts: loaded.parts,
    mpns: mpns.length,
    ...r,
    official_over_node_http: r.ratio_to_first.official_client,
    goal: 'official_over_node_http <= 1.2',
    loadavg: [+load0!.toFixed(2), +os.loadavg()[0]!.toFixed(2)],
  };
  const { by_round, ...summary } = result;
  console.log(JSON.stringify(summary, null, 2));
  fs.writeFileSync(path.join(import.meta.dirname, 'results', 'opensearch-client.json'), JSON.stringify({ ...summary, by_round }, null, 2) + '\n');
} finally {
  await official.close();
  await baseline.close();
  await dropPrefix(url, prefix);
}
