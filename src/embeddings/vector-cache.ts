/**
 * The vector cache port: part vectors kept across ingests, by key (key.ts: the embedder's fingerprint
 * and the embedding text), so that an ingest embeds only the texts no earlier run embedded.
 *
 * Generations bound it. Every vector read or written is stamped with the generation after the last
 * committed one; `commit` (an ingest whose version went live, a vector fill that completed) closes that
 * generation and drops every vector that neither it nor the `keep - 1` generations before it used. So the
 * cache holds the vectors of the last `keep` successful runs: about the catalogue once when dumps change
 * little, and never more than `keep` catalogues. A run that fails commits nothing; what it embedded is
 * kept for the next run (it is stamped with the generation that run will commit).
 *
 * The cache is engine-neutral (it holds vectors, not index entries): an ingest into SQLite and one of
 * the same dump into OpenSearch from the same data dir embed once.
 */

export interface VectorCache {
  /** The kept vectors of `keys`, in order (null where none is kept); each one found is stamped as used. */
  get(keys: readonly Buffer[]): Promise<(Float32Array | null)[]>;
  /** Keeps `vectors[i]` under `keys[i]` (replacing any), stamped as used. */
  put(keys: readonly Buffer[], vectors: readonly Float32Array[]): Promise<void>;
  /** Closes the current generation (a successful run) and drops what the last `keep` generations did not use. */
  commit(): Promise<{ dropped: number; kept: number }>;
  /** Vectors kept and the bytes of their data (diagnostics). */
  stats(): Promise<{ vectors: number; bytes: number }>;
  close(): Promise<void>;
}

/** Generations whose vectors are kept by default (EMBEDDING_CACHE_KEEP): the live version's and the one before. */
export const DEFAULT_CACHE_KEEP = 2;
