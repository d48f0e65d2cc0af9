/**
 * Completing the vectors of a version that went live without all of them (ingest `--embeddings
 * background`, the sample catalogue of a first `npm start`): the engine side of the vector fill
 * (src/embeddings/vector-fill.ts). Both adapters implement it (sqlite/backfill.ts, opensearch/backfill.ts).
 *
 * The live snapshot's `embedding.pending` (catalog/meta.ts) says a version still waits: search stays
 * lexical-only meanwhile, and vectors written with `writeVectors` are not searched until `complete`
 * makes them searchable and removes `pending`, in one step (search turns hybrid).
 *
 * One process fills a version at a time: `claim` takes a lease (renewed by claiming again before it
 * runs out), so an API process does not fill what an ingest or another API process is filling, and a
 * process that died leaves the fill to the next one once its lease has run out.
 */
import type { PartRecord } from '../catalog/part.ts';

export interface VectorFillClaim {
  version: string;
  /** Who fills: host, process and a random part. */
  owner: string;
  /** Milliseconds since the epoch when the lease runs out. */
  expiresAt: number;
  /** Parts embedded so far, of `total` (what diagnostics show of another process's fill). */
  done: number;
  total: number;
}

export interface VectorBackfill {
  /** Parts of `version` without a vector, by ascending id after `afterId`, at most `limit`. */
  partsWithoutVectors(version: string, afterId: number, limit: number): Promise<PartRecord[]>;
  /** Writes vectors (with their keys, embeddings/key.ts) into `version`; not searched before `complete`. */
  writeVectors(version: string, items: readonly { record: PartRecord; vector: Float32Array; key: Uint8Array }[]): Promise<void>;
  /**
   * Makes `version`'s vectors searchable (SQLite: its HNSW graph; OpenSearch: a refresh) and removes
   * `pending` from its snapshot. Fails when parts of it still have no vector.
   */
  complete(version: string): Promise<void>;
  /**
   * Takes or renews the lease on filling `version` for `ttlMs`, recording the progress; false when
   * another owner holds an unexpired lease on it.
   */
  claim(c: VectorFillClaim): Promise<boolean>;
  /** Gives the lease up (when `owner` holds it). */
  release(version: string, owner: string): Promise<void>;
  /** The lease on filling `version`, if any (expired ones included: diagnostics say so). */
  currentClaim(version: string): Promise<VectorFillClaim | null>;
}
