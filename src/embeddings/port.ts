/** Sentence-embedding port: unit-length vectors for texts, batched by the caller. */
export interface Embedder {
  /** Model name for diagnostics and for the catalogue snapshot. */
  readonly model: string;
  readonly dims: number;
  /**
   * What decides the vectors besides the text: the model's weights, precision, truncation and pooling
   * (transformers.ts). Vectors kept across ingests are keyed by it and the text (key.ts), so a new model
   * file, another precision or another truncation never reuses a vector of the old one. Absent: the model
   * name and dimension stand for it.
   */
  readonly fingerprint?: string;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Why the service runs lexical-only, when it does. */
export interface EmbedderStatus {
  embedder: Embedder | null;
  /** Human-readable diagnostic (model loaded, or why not). */
  message: string;
}
