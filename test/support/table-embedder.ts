/**
 * An Embedder whose vectors are chosen by the test (by MPN appearing in the text), so that engine
 * kNN answers are known exactly. It tests the engines' vector search, not a model; the real model
 * is exercised in test/integration/embeddings.test.ts.
 */
import type { Embedder } from '../../src/embeddings/port.ts';

export function tableEmbedder(table: Record<string, number[]>, dims = 4): Embedder {
  const norm = (v: number[]) => {
    const n = Math.hypot(...v) || 1;
    return Float32Array.from(v, (x) => x / n);
  };
  const keys = Object.keys(table).sort((a, b) => b.length - a.length);
  return {
    model: 'table-embedder (test vectors)',
    dims,
    async embed(texts) {
      return texts.map((t) => {
        const k = keys.find((key) => t.startsWith(`${key} `) || t === key);
        return norm(k ? table[k]! : Array.from({ length: dims }, () => 0.01));
      });
    },
    async close() {},
  };
}

/** Vectors of the small fixture catalogue: one axis per family, small offsets within a family. */
export const SMALL_VECTORS: Record<string, number[]> = {
  LM358DR: [1, 0.1, 0, 0],
  LM358D: [1, 0.12, 0, 0],
  LM358DR2G: [1, 0.15, 0, 0],
  LM2904DT: [1, 0.2, 0, 0],
  'RC0603FR-0710KL': [0, 1, 0.05, 0],
  'RC0603FR-074K7L': [0, 1, 0.1, 0],
  '0603WAF1002T5E': [0, 1, 0.08, 0],
  GRM188R71H104KA93D: [0, 0.05, 1, 0],
  CL10A106KP8NNNC: [0, 0.1, 1, 0],
  T491A106K016AT: [0, 0, 1, 0.3],
  TLV70033DDCR: [0.1, 0, 0, 1],
  AO3400A: [0, 0, 0.2, 1],
};
