/**
 * Ingest benchmarks (issue 2), per engine, each figure measured in one run:
 *
 *   1. full: the 29k real parts WITH embeddings: ingest parts/s, and the raw throughput of the same
 *      model on the same kind of texts measured in the same run (ratio goal >= 0.8: embedding is the
 *      floor of an embedded ingest).
 *   2. slim: the 582k slim parts lexical-only: parts/s (goals: SQLite >= 20,000/s, single-node
 *      OpenSearch >= 5,000/s) and peak RSS (goal < 500 MB), also on the first 100k lines so that
 *      "flat with file size" can be seen.
 *
 * Each ingest runs in a child process (`partsearch ingest --json`) so that its peak RSS is its own.
 *
 *   npx tsx bench/ingest.ts [--engine sqlite|opensearch|all] [--only full|slim]
 *
 * OpenSearch runs need OPENSEARCH_URL. Results: bench/results/ingest-<engine>.json and stdout.
 * Skips with a message when ../shared/data/catalog is absent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CategoryTree } from '../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../src/catalog/manufacturers.ts';
import { embeddingText, PartNormaliser } from '../src/catalog/normalise.ts';
import type { DumpPart } from '../src/catalog/part.ts';
import { DEFAULT_MODEL_DIR } from '../src/config.ts';
import { loadEmbedder } from '../src/embeddings/index.ts';
import { openLines } from '../ingest/read-lines.ts';

const root = path.resolve(import.meta.dirname, '..');
const catalog = path.resolve(root, '..', 'shared', 'data', 'catalog');
const { values } = parseArgs({ options: { engine: { type: 'string', default: 'all' }, only: { type: 'string' } } });
if (!fs.existsSync(path.join(catalog, 'parts.jsonl.gz'))) {
  console.log(`[skip] ingest benchmark: no catalogue at ${catalog}`);
  process.exit(0);
}
const engines = values.engine === 'all' ? ['sqlite', ...(process.env.OPENSEARCH_URL ? ['opensearch'] : [])] : [values.engine!];
if (values.engine === 'all' && !process.env.OPENSEARCH_URL) console.log('[skip] OpenSearch: OPENSEARCH_URL is not set');

interface Run {
  summary: Record<string, number | string | boolean | null>;
  maxRssMb: number;
}

function ingest(engine: string, args: string[], env: Record<string, string> = {}): Run {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'psbench-'));
  const prefix = `psbench${process.pid}${Math.floor(Math.random() * 1e6)}`;
  const res = spawnSync('/usr/bin/time', ['-f', 'MAXRSS_KB=%M', process.execPath, path.join(root, 'bin', 'partsearch.js'), 'ingest', '--json', ...args], {
    env: { ...process.env, SEARCH_ENGINE: engine, PARTSEARCH_DATA_DIR: dataDir, OPENSEARCH_INDEX_PREFIX: prefix, ...env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) throw new Error(`ingest failed (${res.status}): ${res.stderr.slice(-2000)}`);
  const summary = JSON.parse(res.stdout.trim().split('\n').pop()!) as Run['summary'];
  const rss = Number(/MAXRSS_KB=(\d+)/.exec(res.stderr)?.[1] ?? 0) / 1024;
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'opensearch') {
    // Drop the benchmark's indices.
    execFileSync('curl', ['-s', '-X', 'DELETE', `${process.env.OPENSEARCH_URL}/${prefix}-*`], { stdio: 'ignore' });
  }
  return { summary, maxRssMb: Math.round(rss) };
}

/** Raw model throughput on the first n part texts of the real dump, same settings as ingest. */
async function rawEmbeddingThroughput(n: number): Promise<{ textsPerSecond: number; model: string }> {
  const status = await loadEmbedder({
    embeddingModelDir: process.env.EMBEDDING_MODEL_DIR || DEFAULT_MODEL_DIR,
    embeddingModelId: null,
    embeddingBatchSize: 64,
  });
  if (!status.embedder) throw new Error(status.message);
  const reg = ManufacturerRegistry.from(JSON.parse(fs.readFileSync(path.join(catalog, 'manufacturers.json'), 'utf8')));
  const normaliser = new PartNormaliser(reg, new CategoryTree());
  const texts: string[] = [];
  for await (const { text } of (await openLines(path.join(catalog, 'parts.jsonl.gz'))).lines) {
    const raw = JSON.parse(text) as DumpPart;
    if (typeof raw.manufacturer !== 'string') continue;
    texts.push(embeddingText(normaliser.normalise(raw)));
    if (texts.length >= n) break;
  }
  await status.embedder.embed(texts.slice(0, 64));
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += 256) await status.embedder.embed(texts.slice(i, i + 256));
  const secs = (performance.now() - t0) / 1000;
  await status.embedder.close();
  return { textsPerSecond: texts.length / secs, model: status.embedder.model };
}

const sideFiles = ['--manufacturers', path.join(catalog, 'manufacturers.json'), '--categories', path.join(catalog, 'categories.json')];
const slim = path.join(catalog, 'parts-582k.jsonl.gz');
const slim100k = path.join(os.tmpdir(), 'psbench-slim-100k.jsonl');
if (!fs.existsSync(slim100k)) execFileSync('bash', ['-c', `zcat '${slim}' | head -n 100000 > '${slim100k}'`]);

for (const engine of engines) {
  const out: Record<string, unknown> = {
    engine,
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  };
  if (values.only !== 'slim') {
    const raw = await rawEmbeddingThroughput(3000);
    const run = ingest(engine, ['--parts', path.join(catalog, 'parts.jsonl.gz'), ...sideFiles]);
    const pps = run.summary.partsPerSecond as number;
    out.full = {
      ...run,
      rawEmbeddingTextsPerSecond: Math.round(raw.textsPerSecond),
      ratioToRawEmbedding: +(pps / raw.textsPerSecond).toFixed(3),
      model: raw.model,
    };
    console.log(
      `${engine} full 29k with embeddings: ${Math.round(pps)} parts/s; raw model ${Math.round(raw.textsPerSecond)} texts/s; ratio ${(pps / raw.textsPerSecond).toFixed(2)} (goal >= 0.8); peak RSS ${run.maxRssMb} MB`,
    );
  }
  if (values.only !== 'full') {
    console.log(
      `load average before the slim runs: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')} (${os.cpus().length} cores)`,
    );
    const small = ingest(engine, ['--parts', slim100k, ...sideFiles, '--no-embeddings']);
    const big = ingest(engine, ['--parts', slim, ...sideFiles, '--no-embeddings']);
    const phases = (r: Run) =>
      `${(r.summary.seconds as number).toFixed(1)} s: streaming ${(r.summary.streamSeconds as number).toFixed(1)} s, after the last write ${(r.summary.finishSeconds as number).toFixed(1)} s`;
    console.log(
      `${engine} slim 100k lexical-only: ${Math.round(small.summary.partsPerSecond as number)} parts/s (${phases(small)}), peak RSS ${small.maxRssMb} MB`,
    );
    console.log(
      `${engine} slim 582k lexical-only: ${Math.round(big.summary.partsPerSecond as number)} parts/s (${phases(big)}; goal ${engine === 'sqlite' ? '20,000' : '5,000'}), peak RSS ${big.maxRssMb} MB (goal < 500)`,
    );
    out.slim = { first100k: small, all582k: big, loadAverageAfter: os.loadavg().map((x) => +x.toFixed(2)) };
  }
  // Merge into the engine's results file so that --only runs keep the other section.
  const file = path.join(root, 'bench', 'results', `ingest-${engine}.json`);
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.writeFileSync(file, `${JSON.stringify({ ...before, ...out }, null, 2)}\n`);
}
