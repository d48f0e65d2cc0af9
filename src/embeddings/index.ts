/** Chooses the embedder from configuration; without a model the service runs lexical-only. */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { EmbedderStatus } from './port.ts';
import { createTransformersEmbedder, describeModelFolder } from './transformers.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

/**
 * The model runs in a worker thread (worker-embedder.ts) unless `inProcess` is asked for (benchmarks
 * comparing the two). `threads`: intra-op threads of a forward pass (onnxruntime's default when absent).
 */
export async function loadEmbedder(
  config: Pick<Config, 'embeddingModelDir' | 'embeddingModelId' | 'embeddingBatchSize'>,
  opts: { inProcess?: boolean; threads?: number; log?: Logger; lazy?: boolean } = {},
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
    // `lazy`: a model folder's name, dimension and fingerprint are read from its files, and the model is
    // loaded by the first call (an ingest whose vectors are all kept never loads it).
    if (opts.lazy && config.embeddingModelDir && !opts.inProcess) {
      const known = describeModelFolder(config.embeddingModelDir);
      const embedder = await createWorkerEmbedder(options, { log: opts.log, known });
      return { embedder, message: `embedding model ${embedder.model} (${embedder.dims} dims), loaded when a part needs embedding` };
    }
    const embedder = opts.inProcess ? await createTransformersEmbedder(options) : await createWorkerEmbedder(options, { log: opts.log });
    return { embedder, message: `embedding model ${embedder.model} loaded (${embedder.dims} dims): hybrid search` };
  } catch (e) {
    const where = config.embeddingModelDir ?? config.embeddingModelId;
    return { embedder: null, message: `embedding model ${where} could not be loaded (${(e as Error).message}): lexical-only search` };
  }
}
