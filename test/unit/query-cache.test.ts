/** The API's kept query embeddings (embeddings/query-cache.ts): asked again, a query is not embedded again. */
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embeddings/port.ts';
import { cachingEmbedder } from '../../src/embeddings/query-cache.ts';
import { loadConfig } from '../../src/config.ts';
import { tableEmbedder } from '../support/table-embedder.ts';

/** The test embedder, counting the calls that reach it (and failing while `failing` is set). */
function counted(): Embedder & { calls: string[][]; failing: boolean } {
  const table = tableEmbedder({ LM358: [1, 0, 0, 0], NE555: [0, 1, 0, 0] });
  const c = {
    ...table,
    calls: [] as string[][],
    failing: false,
    async embed(texts: readonly string[]) {
      c.calls.push([...texts]);
      await new Promise((r) => setTimeout(r, 1));
      if (c.failing) throw new Error('the embedding worker exited (code 1)');
      return table.embed(texts);
    },
  };
  return c;
}

describe('kept query embeddings', () => {
  it('embeds a query once, however often and however concurrently it is asked, and gives each caller its own copy', async () => {
    const inner = counted();
    const e = cachingEmbedder(inner, 8);
    const [a, b] = await Promise.all([e.embed(['LM358 op amp']), e.embed(['LM358 op amp'])]);
    const c = await e.embed(['LM358 op amp']);
    expect(inner.calls).toEqual([['LM358 op amp']]);
    expect(Array.from(a[0]!)).toEqual(Array.from((await inner.embed(['LM358 op amp']))[0]!));
    expect(b[0]).toEqual(a[0]);
    expect(c[0]).toEqual(a[0]);
    a[0]![0] = 42; // a caller changing its vector changes nobody else's
    expect((await e.embed(['LM358 op amp']))[0]![0]).not.toBe(42);
    await e.embed(['NE555 timer']);
    expect(inner.calls.filter((x) => x[0] === 'NE555 timer').length).toBe(1);
  });

  it('keeps at most its size, dropping the least recently used', async () => {
    const inner = counted();
    const e = cachingEmbedder(inner, 2);
    for (const q of ['q1', 'q2', 'q1', 'q3']) await e.embed([q]); // q2 is the least recently used when q3 comes
    expect(e.kept).toBe(2);
    inner.calls.length = 0;
    await e.embed(['q1']);
    await e.embed(['q3']);
    expect(inner.calls).toEqual([]);
    await e.embed(['q2']);
    expect(inner.calls).toEqual([['q2']]);
  });

  it('does not keep a failed call, and passes batches and long texts straight to the model', async () => {
    const inner = counted();
    const e = cachingEmbedder(inner, 8);
    inner.failing = true;
    await expect(e.embed(['LM358'])).rejects.toThrow(/worker exited/);
    inner.failing = false;
    expect((await e.embed(['LM358'])).length).toBe(1);
    expect(inner.calls).toEqual([['LM358'], ['LM358']]);
    inner.calls.length = 0;
    await e.embed(['a', 'b']);
    await e.embed(['a', 'b']);
    const long = 'x'.repeat(600);
    await e.embed([long]);
    await e.embed([long]);
    expect(inner.calls).toEqual([['a', 'b'], ['a', 'b'], [long], [long]]);
    expect(e.kept).toBe(1);
  });

  it('is configured by EMBEDDING_QUERY_CACHE (1024 by default, 0 keeps none)', () => {
    expect(loadConfig({}).embeddingQueryCache).toBe(1024);
    expect(loadConfig({ EMBEDDING_QUERY_CACHE: '0' }).embeddingQueryCache).toBe(0);
    expect(() => loadConfig({ EMBEDDING_QUERY_CACHE: '-1' })).toThrow(/EMBEDDING_QUERY_CACHE/);
  });
});
