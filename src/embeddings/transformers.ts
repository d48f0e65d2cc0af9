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
    quantized = !fs.existsSync(path.join(o.dir, 'onnx', 'model.onnx')) && fs.existsSync(path.join(o.dir, 'onnx', 'model_quantized.onnx'));
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
  const dtype = quantized ? 'q8' : 'fp32';
  // The weights and tokenizer by content (a folder refetched as another variant keeps its name), then
  // what this adapter does with them: truncation and pooling (`mean-l2`: change it when the pooling changes).
  const files = o.dir ? [path.join(o.dir, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx'), path.join(o.dir, 'tokenizer.json')] : [];
  const contents = files.map((f) => (fs.existsSync(f) ? createHash('sha256').update(fs.readFileSync(f)).digest('hex').slice(0, 16) : 'absent'));
  const fingerprint = [name, dtype, ...contents, `max${maxTokens}`, 'mean-l2'].join('|');

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
