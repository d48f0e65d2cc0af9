/** Sentence-embedding port: unit-length vectors for texts, batched by the caller. */
export interface Embedder {
  /** Model name for diagnostics and for the catalogue snapshot. */
  readonly model: string;
  readonly dims: number;
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
