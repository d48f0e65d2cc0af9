/** Chooses the embedder from configuration; without a model the service runs lexical-only. */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { EmbedderStatus } from './port.ts';
import { createTransformersEmbedder } from './transformers.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

/**
 * The model runs in a worker thread (worker-embedder.ts) unless `inProcess` is asked for (benchmarks
 * comparing the two). `threads`: intra-op threads of a forward pass (onnxruntime's default when absent).
 */
export async function loadEmbedder(
  config: Pick<Config, 'embeddingModelDir' | 'embeddingModelId' | 'embeddingBatchSize'>,
  opts: { inProcess?: boolean; threads?: number; log?: Logger } = {},
): Promise<EmbedderStatus> {
  if (!config.embeddingModelDir && !config.embeddingModelId) {
    return {
      embedder: null,
      message:
        'no embedding model configured (EMBEDDING_MODEL_DIR=none, or unset and models/all-MiniLM-L6-v2 absent): lexical-only search; run scripts/fetch-model.sh to enable semantic search',
    };
  }
  try {
    const options = { dir: config.embeddingModelDir, modelId: config.embeddingModelId, batchSize: config.embeddingBatchSize, threads: opts.threads };
    const embedder = opts.inProcess ? await createTransformersEmbedder(options) : await createWorkerEmbedder(options, { log: opts.log });
    return { embedder, message: `embedding model ${embedder.model} loaded (${embedder.dims} dims): hybrid search` };
  } catch (e) {
    const where = config.embeddingModelDir ?? config.embeddingModelId;
    return { embedder: null, message: `embedding model ${where} could not be loaded (${(e as Error).message}): lexical-only search` };
  }
}
