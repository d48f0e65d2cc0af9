/**
 * The embedding stage of the ingest (ingest/pipeline.ts) and of the vector fill (vector-fill.ts): part
 * texts -> vectors.
 * Vectors kept in the cache (src/embeddings/vector-cache.ts) are reused; the other texts go to the model,
 * one call at a time (the model already uses every core given to it; two calls would only fight over
 * them), and what it returns is kept for the next run. A text repeated within a batch is embedded once.
 *
 * `defer`: texts without a kept vector get none (null) instead of waiting for the model: the ingest's
 * `--embeddings background`, whose version goes live first and has its vectors filled afterwards.
 */
import { embedderIdentity, embeddingKey } from './key.ts';
import type { Embedder } from './port.ts';
import type { VectorCache } from './vector-cache.ts';

export interface EmbedCounts {
  /** Texts the model embedded. */
  embedded: number;
  /** Texts whose vector came from the cache. */
  reused: number;
  /** Texts left without a vector (defer). */
  deferred: number;
  /** Milliseconds inside the model. */
  modelMs: number;
}

export interface EmbeddedTexts {
  /** Each text's vector (null: deferred). */
  vectors: (Float32Array | null)[];
  /** Each text's key (key.ts): engines keep it beside the vector, to tell which vectors changed between versions. */
  keys: Buffer[];
}

export interface EmbedStage {
  vectors(texts: readonly string[]): Promise<EmbeddedTexts>;
  readonly counts: Readonly<EmbedCounts>;
}

export function createEmbedStage(o: { embedder: Embedder; cache: VectorCache | null; defer?: boolean }): EmbedStage {
  const identity = embedderIdentity(o.embedder);
  const counts: EmbedCounts = { embedded: 0, reused: 0, deferred: 0, modelMs: 0 };
  let chain: Promise<unknown> = Promise.resolve();

  /** The model's vectors of `texts`, after the calls before it. */
  const embed = (texts: string[]): Promise<Float32Array[]> => {
    const run = chain.then(async () => {
      const t0 = performance.now();
      const v = await o.embedder.embed(texts);
      counts.modelMs += performance.now() - t0;
      return v;
    });
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    counts,
    async vectors(texts) {
      const keys = texts.map((t) => embeddingKey(identity, t));
      if (!o.cache) {
        if (o.defer) {
          counts.deferred += texts.length;
          return { vectors: texts.map(() => null), keys };
        }
        counts.embedded += texts.length;
        return { vectors: await embed([...texts]), keys };
      }
      const out = await o.cache.get(keys);
      // Texts still to embed, each once: key -> the positions wanting it.
      const wanted = new Map<string, number[]>();
      out.forEach((v, i) => {
        if (v) return;
        const k = keys[i]!.toString('latin1');
        const at = wanted.get(k);
        if (at) at.push(i);
        else wanted.set(k, [i]);
      });
      counts.reused += texts.length - [...wanted.values()].reduce((n, at) => n + at.length, 0);
      if (wanted.size === 0) return { vectors: out, keys };
      const missing = [...wanted.values()];
      if (o.defer) {
        counts.deferred += missing.reduce((n, at) => n + at.length, 0);
        return { vectors: out, keys };
      }
      const fresh = await embed(missing.map((at) => texts[at[0]!]!));
      await o.cache.put(
        missing.map((at) => keys[at[0]!]!),
        fresh,
      );
      counts.embedded += missing.length;
      missing.forEach((at, j) => {
        counts.reused += at.length - 1;
        for (const i of at) out[i] = fresh[j]!;
      });
      return { vectors: out, keys };
    },
  };
}
