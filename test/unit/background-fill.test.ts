import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { startBackgroundFill } from '../../src/embeddings/background-fill.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { silentLogger } from '../../src/log.ts';
import { tempDir } from '../support/fixtures.ts';
import { hashEmbedder } from '../support/hash-embedder.ts';

const part = (i: number) =>
  JSON.stringify({ mpn: `TPS7A${1000 + i}`, manufacturer: 'Texas Instruments', description: `LDO regulator ${i}`, category: ['Power', 'LDO'] });

describe('the API process fills pending vectors in the background', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('serves while it fills, then the version is searched with its vectors', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    dirs.push(dir);
    const dump = path.join(dir, 'parts.jsonl');
    fs.writeFileSync(dump, Array.from({ length: 300 }, (_, i) => part(i)).join('\n'));
    const engine = createSqliteEngine({ file: path.join(dir, 'p.db') });
    // A model taking about 2 ms per text, in its own thread as the API's is (a timer here).
    const slow: Embedder = { ...hashEmbedder, embed: (t) => new Promise((resolve) => setTimeout(() => resolve(hashEmbedder.embed(t)), 2 * t.length)) };
    await runIngest({ engine, embedder: slow, embeddings: 'background', parts: [dump], reportFile: path.join(dir, 'r.jsonl') });
    expect(await engine.info()).toMatchObject({ parts: 300, vectors: false });

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const fill = startBackgroundFill({ engine, embedder: slow, openCache: async () => null, log: silentLogger, checkMs: 50 });
    try {
      const searched: boolean[] = [];
      while ((await engine.info()).vectors === false) {
        expect((await engine.textSearch({ text: 'regulator', filters: {}, limit: 5, offset: 0 })).hits).toHaveLength(5);
        searched.push(true);
        await new Promise((r) => setTimeout(r, 20));
      }
      delay.disable();
      expect(searched.length).toBeGreaterThan(5); // requests answered all along
      expect(delay.max / 1e6).toBeLessThan(250); // no long stall of the event loop (ms)
      while (fill.status()?.state === 'embedding') await new Promise((r) => setTimeout(r, 10)); // the fill's own end, just after
      expect(fill.status()).toMatchObject({ state: 'complete', total: 300, done: 300, embedded: 300 });
      expect(await engine.knn((await hashEmbedder.embed(['x']))[0]!, 3, {})).toHaveLength(3);
    } finally {
      await fill.stop();
      await engine.close();
    }
  });
});
