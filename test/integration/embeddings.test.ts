/**
 * The real sentence-embedding model (all-MiniLM-L6-v2 through transformers.js), from
 * EMBEDDING_MODEL_DIR or the folder scripts/fetch-model.sh provides. Skips with a message without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { closeServices, createServices } from '../../src/composition.ts';
import { DEFAULT_MODEL_DIR, loadConfig } from '../../src/config.ts';
import { loadEmbedder } from '../../src/embeddings/index.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import { createWorkerEmbedder } from '../../src/embeddings/worker-embedder.ts';
import { silentLogger } from '../../src/log.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { noteSkip, SMALL, tempDir } from '../support/fixtures.ts';

const modelDir = process.env.EMBEDDING_MODEL_DIR || DEFAULT_MODEL_DIR;
const present = fs.existsSync(path.join(modelDir, 'tokenizer.json'));
if (!present) noteSkip('embedding model tests', `no model at ${modelDir} (run scripts/fetch-model.sh)`);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe.skipIf(!present)('sentence embeddings (all-MiniLM-L6-v2)', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    const status = await loadEmbedder({ embeddingModelDir: modelDir, embeddingModelId: null, embeddingBatchSize: 16 });
    expect(status.embedder, status.message).not.toBeNull();
    embedder = status.embedder!;
  });
  afterAll(async () => embedder?.close());

  // The quantised model quantises activations per batch, so a text's vector moves slightly with its
  // batch companions: the same direction (cosine > 0.99), not the same bits.
  it('gives 384-dim unit vectors, in the same direction for the same text whatever the batch', async () => {
    const [a, b] = await embedder.embed(['100nF 50V X7R capacitor 0603', 'dual op amp']);
    const [a2] = await embedder.embed(['100nF 50V X7R capacitor 0603']);
    expect(embedder.dims).toBe(384);
    expect(a).toHaveLength(384);
    expect(Math.sqrt(dot(a!, a!))).toBeCloseTo(1, 4);
    expect(dot(a!, a2!)).toBeGreaterThan(0.99);
    expect(dot(a!, b!)).toBeLessThan(0.5);
  });

  it('places related part descriptions closer than unrelated ones', async () => {
    const [q, ldo, cap] = await embedder.embed([
      'low dropout voltage regulator 3.3V',
      'TLV70033DDCR Texas Instruments. 3.3V 200mA low dropout LDO linear regulator SOT-23-5',
      'GRM188R71H104KA93D Murata. 100nF 50V X7R 0603 Multilayer Ceramic Capacitor MLCC',
    ]);
    expect(dot(q!, ldo!)).toBeGreaterThan(dot(q!, cap!) + 0.1);
  });

  it('feeds the engine: nearest neighbours of a need are the right parts', async () => {
    const dir = tempDir();
    const engine = createSqliteEngine({ file: path.join(dir, 'p.db') });
    try {
      const s = await runIngest({ engine, embedder, parts: [SMALL.parts], categoriesFile: SMALL.categories, reportFile: path.join(dir, 'r.jsonl') });
      expect(s.embedded).toBe(true);
      expect((await engine.meta())!.embedding).toEqual({ model: embedder.model, dims: 384, fingerprint: embedder.fingerprint });
      const [q] = await embedder.embed(['N-channel MOSFET transistor']);
      const nn = await engine.knn(q!, 3, {});
      expect((await engine.getParts([nn[0]!.id]))[0]!.mpn).toBe('AO3400A');
    } finally {
      await engine.close();
    }
  });

  it('runs the model in a worker thread: the same vectors as in process, and the event loop keeps turning meanwhile', async () => {
    const local = (await loadEmbedder({ embeddingModelDir: modelDir, embeddingModelId: null, embeddingBatchSize: 16 }, { inProcess: true })).embedder!;
    try {
      const texts = ['dual op amp', '100nF 50V X7R capacitor 0603', 'usb to uart bridge'];
      const [w, l] = [await embedder.embed(texts), await local.embed(texts)];
      w.forEach((v, i) => expect(dot(v, l[i]!)).toBeGreaterThan(0.9999));
      // 256 texts take well over one tick of a 1 ms interval; in process the loop would be blocked throughout.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const many = await embedder.embed(Array.from({ length: 256 }, (_, i) => `${i} ohm resistor 0603 thick film ${'x'.repeat(i % 40)}`));
      clearInterval(timer);
      expect(many).toHaveLength(256);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await local.close();
    }
  });
});

describe.skipIf(!present)('embedding worker', () => {
  it("posts a call at once, so the caller's synchronous work overlaps the forward pass", async () => {
    const e = await createWorkerEmbedder({ dir: modelDir });
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      const pending = e.embed(['dual op amp']);
      expect(post).toHaveBeenCalledTimes(1); // before this test yields to the event loop
      expect(await pending).toHaveLength(1);
    } finally {
      post.mockRestore();
      await e.close();
    }
  });

  it('fails the calls of a pause after the worker dies, then starts a new worker', async () => {
    const lines: string[] = [];
    const log = { ...silentLogger, warn: (m: string) => void lines.push(`warn ${m}`), info: (m: string) => void lines.push(`info ${m}`) };
    const e = await createWorkerEmbedder({ dir: modelDir }, { restartAfterMs: 300, log });
    try {
      const [before] = await e.embed(['dual op amp']);
      await e.endWorker();
      await expect(e.embed(['dual op amp'])).rejects.toThrow(/embedding worker/);
      await new Promise((r) => setTimeout(r, 350));
      const [after] = await e.embed(['dual op amp']);
      expect(dot(before!, after!)).toBeGreaterThan(0.9999);
      // Operators see both: the failure (and what search does meanwhile) and the restart.
      expect(lines).toEqual([
        'warn embedding worker failed: hybrid search answers lexical-only until a new worker has loaded the model',
        'info starting a new embedding worker',
      ]);
    } finally {
      await e.close();
    }
  });

  it('finishes a call made while a new worker loads the model before it closes', async () => {
    const e = await createWorkerEmbedder({ dir: modelDir }, { restartAfterMs: 0 });
    await e.endWorker();
    const pending = e.embed(['dual op amp']); // starts a new worker, whose model is still loading
    await e.close();
    expect(await pending).toHaveLength(1);
  });

  it('fails a call that gets no answer in time, then serves the next calls from a new worker', async () => {
    const e = await createWorkerEmbedder({ dir: modelDir }, { callLimitMs: 300, perTextMs: 0, restartAfterMs: 300 });
    try {
      // 1,000 texts of about 100 words take seconds, well past 300 ms (1,000 of six words took under 300 ms
      // on a fast day). The busy worker is not terminated (that would abort this process inside the
      // forward pass): it is retired and ends once idle.
      const long = (i: number) => `text ${i} ${'of a long batch of words '.repeat(20)}`;
      await expect(e.embed(Array.from({ length: 1000 }, (_, i) => long(i)))).rejects.toThrow(/did not answer within/);
      await expect(e.embed(['dual op amp'])).rejects.toThrow(/did not answer within/); // the restart pause
      await new Promise((r) => setTimeout(r, 350));
      expect(await e.embed(['dual op amp'])).toHaveLength(1); // a new worker: 300 ms is plenty for one short text
    } finally {
      await e.close();
    }
  });

  it('lets the calls in flight finish before closing, keeps the process alive until it has closed, and can start again', async () => {
    const e = await createWorkerEmbedder({ dir: modelDir });
    const inFlight = e.embed(['usb to uart bridge', 'red led 0603']);
    await e.close();
    expect(await inFlight).toHaveLength(2);
    // In a process with nothing else to do, close() must still run to its end (the idle worker is unref'd).
    const script = path.join(tempDir(), 'close.mts');
    fs.writeFileSync(
      script,
      `import { createWorkerEmbedder } from ${JSON.stringify(path.resolve('src/embeddings/worker-embedder.ts'))};
const dir = ${JSON.stringify(modelDir)};
const e = await createWorkerEmbedder({ dir });
await e.embed(['dual op amp']);
await e.close();
// A second embedder after the first has ended, with no other worker alive in between: onnxruntime's
// native binding cannot be loaded again once unloaded, so it must have stayed loaded.
const again = await createWorkerEmbedder({ dir });
await again.embed(['dual op amp']);
await again.close();
console.log('closed');
`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.trim(), r.stderr).toBe('closed');
    expect(r.status).toBe(0);
  });
});

describe('an embedding worker that does not answer in time', () => {
  /** Runs a script in a process of its own: its output, exit status and signal, and how long it took. */
  const run = (body: string) => {
    const script = path.join(tempDir(), 'abandoned.mts');
    fs.writeFileSync(
      script,
      `import { createWorkerEmbedder } from ${JSON.stringify(path.resolve('src/embeddings/worker-embedder.ts'))};
const open = (graceMs: number) => createWorkerEmbedder({ dir: ${JSON.stringify(modelDir)} }, { callLimitMs: 300, perTextMs: 0, abandonedGraceMs: graceMs });
const texts = (n: number) => Array.from({ length: n }, (_, i) => \`text \${i} of a long batch\`);
${body}
console.log('closed');
`,
    );
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 90_000 });
    return { ...r, ms: performance.now() - t0 };
  };

  it('lets a slow pass that ran out of time end within the grace period, then closes cleanly', () => {
    // 1,500 texts take a few seconds: past the 300 ms limit, within the 60 s grace.
    const r = run(`const e = await open(60_000);
await e.embed(texts(1500)).catch(() => undefined);
await e.close();`);
    expect(r.stdout.trim(), r.stderr).toBe('closed');
    expect(r.status, r.stderr).toBe(0);
  }, 100_000);

  it('does not let a pass that never ends hold up closing or the end of the process', () => {
    // 30,000 texts keep a worker in its pass for a minute or more: as a hung pass would. One ran out before
    // close(), one is still running when close() starts; after the 1 s grace closing lets go of both. The
    // process then ends at once: cleanly, or aborted by onnxruntime-node as it tears down a thread inside a
    // pass (what an orchestrator's kill would do later), but it ends.
    const r = run(`const a = await open(1000);
await a.embed(texts(30_000)).catch(() => undefined);
await a.close();
const b = await open(1000);
const pending = b.embed(texts(30_000)).catch(() => undefined);
await b.close();
await pending;`);
    expect(r.stdout.trim(), r.stderr).toBe('closed');
    expect(r.status === 0 || r.signal === 'SIGABRT', `${r.status} ${r.signal} ${r.stderr}`).toBe(true);
    expect(r.ms).toBeLessThan(30_000); // two model loads and two 1 s grace periods: seconds, not minutes
  }, 100_000);
});

describe('embedding model that cannot be loaded', () => {
  it('leaves the service lexical-only, and says why', async () => {
    const status = await loadEmbedder({ embeddingModelDir: tempDir(), embeddingModelId: null, embeddingBatchSize: 16 });
    expect(status.embedder).toBeNull();
    expect(status.message).toMatch(/could not be loaded .*lexical-only search/);
  });
});

describe.skipIf(!present)('the API process and its query embeddings', () => {
  it('keeps the queries it embeds (EMBEDDING_QUERY_CACHE), and the ingest does not', async () => {
    const env = { PARTSEARCH_DATA_DIR: tempDir(), EMBEDDING_MODEL_DIR: modelDir };
    const kept = (e: Embedder | null) => (e as { kept?: number } | null)?.kept;
    const api = await createServices(loadConfig(env), { log: silentLogger });
    const ingest = await createServices(loadConfig(env), { log: silentLogger, bulkEmbedding: true });
    const off = await createServices(loadConfig({ ...env, EMBEDDING_QUERY_CACHE: '0' }), { log: silentLogger });
    try {
      const [a] = await api.embedder!.embed(['dual op amp']);
      const [b] = await api.embedder!.embed(['dual op amp']);
      expect(kept(api.embedder)).toBe(1);
      expect(Array.from(b!)).toEqual(Array.from(a!));
      for (const s of [ingest, off]) {
        await s.embedder!.embed(['dual op amp']);
        expect(kept(s.embedder)).toBeUndefined();
      }
    } finally {
      for (const s of [api, ingest, off]) await closeServices(s);
    }
  }, 60_000);
});
