/**
 * The API's query embeddings, kept: a query asked again (the next page of an agentic search, a client
 * retrying, a popular query) is not embedded again, and the same query asked by several clients at once
 * is embedded once (they share the call in flight). The model is deterministic, so a kept vector is the
 * one the model would give. Only single-text calls are kept (the API's queries); batches (the ingest's
 * documents) go straight to the model. A failed call is not kept: the next asks again.
 *
 * At most `size` queries are kept, the least recently used dropped first; each costs its text and
 * dims x 4 bytes (1.5 KB for 384 dimensions). Callers get their own copy of a vector.
 */
import type { Embedder } from './port.ts';
import { Lru } from '../util/lru.ts';

/** Queries kept by default (EMBEDDING_QUERY_CACHE): about 1.6 MB at 384 dimensions. */
export const DEFAULT_QUERY_CACHE = 1024;

/** Longest query text kept (longer ones are embedded each time: a cache of long texts would hold their text too). */
const MAX_KEPT_TEXT = 512;

export interface CachingEmbedder extends Embedder {
  /** Queries kept now (for tests and diagnostics). */
  readonly kept: number;
}

export function cachingEmbedder(inner: Embedder, size = DEFAULT_QUERY_CACHE): CachingEmbedder {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`query cache: size must be an integer >= 1, got ${size}`);
  const kept = new Lru<string, Promise<Float32Array>>(size);
  const one = (text: string): Promise<Float32Array> => {
    const hit = kept.get(text);
    if (hit) return hit;
    const call = inner.embed([text]).then((vs) => {
      const v = vs[0];
      if (!v) throw new Error('the embedding model returned no vector');
      return v;
    });
    kept.set(text, call);
    // Not kept when it fails (only if it is still this call that is kept).
    call.catch(() => {
      if (kept.get(text) === call) kept.delete(text);
    });
    return call;
  };
  return {
    model: inner.model,
    dims: inner.dims,
    fingerprint: inner.fingerprint,
    get kept() {
      return kept.size;
    },
    async embed(texts) {
      if (texts.length !== 1 || texts[0]!.length > MAX_KEPT_TEXT) return inner.embed(texts);
      return [(await one(texts[0]!)).slice()];
    },
    close: () => {
      kept.clear();
      return inner.close();
    },
  };
}
