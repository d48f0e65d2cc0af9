/**
 * transformers.js adapter of the embedding port: a BERT-style sentence encoder (all-MiniLM-L6-v2 by
 * default) from a local folder (transformers.js layout: config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model[_quantized].onnx), or from the hub when a model id is given and
 * the hub is reachable. Mean pooling over the attention mask, then L2 normalisation.
 *
 * Texts are sorted by length inside a call so that each padded sub-batch wastes little work.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Embedder } from './port.ts';

export interface TransformersEmbedderOptions {
  /** Local model folder, or null to use `modelId` from the hub. */
  dir: string | null;
  modelId?: string | null;
  /** Tokens per text; longer texts are truncated. */
  maxTokens?: number;
  /** Texts per forward pass. */
  batchSize?: number;
  threads?: number;
}

type Tensor = { data: Float32Array | BigInt64Array; dims: number[] };

/** How this adapter pools (change it when the pooling changes: it is part of every fingerprint). */
const POOLING = 'mean-l2';

/** The model file a folder's embedder loads: the full-precision one when present, else the quantised one. */
function modelFile(dir: string): { file: string; quantized: boolean } {
  const full = path.join(dir, 'onnx', 'model.onnx');
  const quantized = !fs.existsSync(full) && fs.existsSync(path.join(dir, 'onnx', 'model_quantized.onnx'));
  return { file: quantized ? path.join(dir, 'onnx', 'model_quantized.onnx') : full, quantized };
}

/**
 * What an embedder of the model folder `dir` would be, read from its files without loading the model:
 * its name, dimension (config.json `hidden_size`) and fingerprint. The fingerprint names the weights and
 * the tokenizer by content (a folder fetched again as another variant keeps its name), then what this
 * adapter does with them: the truncation and the pooling.
 */
export function describeModelFolder(dir: string, maxTokens = 128): { model: string; dims: number; fingerprint: string } {
  const { file, quantized } = modelFile(dir);
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { hidden_size?: number };
  const contents = [file, path.join(dir, 'tokenizer.json')].map((f) =>
    fs.existsSync(f) ? createHash('sha256').update(fs.readFileSync(f)).digest('hex').slice(0, 16) : 'absent',
  );
  const model = path.basename(dir);
  return { model, dims: config.hidden_size ?? 384, fingerprint: [model, quantized ? 'q8' : 'fp32', ...contents, `max${maxTokens}`, POOLING].join('|') };
}

export async function createTransformersEmbedder(o: TransformersEmbedderOptions): Promise<Embedder> {
  const tf = await import('@huggingface/transformers');
  const maxTokens = o.maxTokens ?? 128;
  const batchSize = o.batchSize ?? 32;
  let modelRef: string;
  let quantized = false;
  if (o.dir) {
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    tf.env.localModelPath = path.dirname(o.dir) + path.sep;
    modelRef = path.basename(o.dir);
    quantized = modelFile(o.dir).quantized;
  } else if (o.modelId) {
    tf.env.allowRemoteModels = true;
    modelRef = o.modelId;
    quantized = true;
  } else {
    throw new Error('no embedding model folder or hub id configured');
  }
  const tokenizer = await tf.AutoTokenizer.from_pretrained(modelRef);
  const model = await tf.AutoModel.from_pretrained(modelRef, {
    dtype: quantized ? 'q8' : 'fp32',
    session_options: o.threads ? { intraOpNumThreads: o.threads } : undefined,
  } as Parameters<typeof tf.AutoModel.from_pretrained>[1]);
  const config = model.config as unknown as { hidden_size?: number };
  const dims = config.hidden_size ?? 384;
  const name = o.dir ? path.basename(o.dir) : modelRef;
  const fingerprint = o.dir ? describeModelFolder(o.dir, maxTokens).fingerprint : [name, quantized ? 'q8' : 'fp32', `max${maxTokens}`, POOLING].join('|');

  async function forward(texts: string[]): Promise<Float32Array[]> {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxTokens });
    const out = (await model(inputs)) as { last_hidden_state: Tensor };
    const hidden = out.last_hidden_state;
    const mask = (inputs as { attention_mask: Tensor }).attention_mask;
    const [n, seq, dim] = hidden.dims as [number, number, number];
    const h = hidden.data as Float32Array;
    const m = mask.data as BigInt64Array;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < n; i++) {
      const v = new Float32Array(dim);
      let count = 0;
      for (let j = 0; j < seq; j++) {
        if (m[i * seq + j] === 0n) continue;
        count++;
        const off = (i * seq + j) * dim;
        for (let d = 0; d < dim; d++) v[d]! += h[off + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) {
        v[d]! /= Math.max(count, 1);
        norm += v[d]! * v[d]!;
      }
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dim; d++) v[d]! /= norm;
      vectors.push(v);
    }
    return vectors;
  }

  return {
    model: name,
    dims,
    fingerprint,
    async embed(texts) {
      const order = texts.map((t, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
      const result = new Array<Float32Array>(texts.length);
      for (let i = 0; i < order.length; i += batchSize) {
        const idx = order.slice(i, i + batchSize);
        const vecs = await forward(idx.map((k) => texts[k] || ' '));
        idx.forEach((k, j) => (result[k] = vecs[j]!));
      }
      return result;
    },
    async close() {
      await (model as unknown as { dispose?: () => Promise<void> }).dispose?.();
    },
  };
}
