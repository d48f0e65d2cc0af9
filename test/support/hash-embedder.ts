/**
 * An Embedder of deterministic pseudo-random unit vectors, one per text (its FNV-1a hash, xorshift from
 * there): stable and spread over the sphere, with no meaning. It tests the engines' vector search and
 * what depends on it, not a model; the real model is exercised in test/integration/embeddings.test.ts.
 */
import type { Embedder } from '../../src/embeddings/port.ts';

export const HASH_DIMS = 8;

export function hashVector(text: string): Float32Array {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  const v = new Float32Array(HASH_DIMS);
  for (let i = 0; i < HASH_DIMS; i++) {
    h ^= h << 13;
    h ^= h >>> 17;
    h ^= h << 5;
    h >>>= 0;
    v[i] = h / 2 ** 32 - 0.5;
  }
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export const hashEmbedder: Embedder = {
  model: 'hash vectors (test)',
  dims: HASH_DIMS,
  embed: async (texts) => texts.map(hashVector),
  close: async () => {},
};
