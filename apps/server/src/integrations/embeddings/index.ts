import type { Config } from '../../config.js';
import { NoEmbeddings } from './none.js';
import { OpenAiCompatibleEmbeddings } from './openai-compatible.js';
import type { EmbeddingsProvider } from './types.js';

/** Config has already checked that a set EMBEDDINGS_BASE_URL comes with its key and model. */
export function createEmbeddingsProvider(config: Config): EmbeddingsProvider {
  if (!config.EMBEDDINGS_BASE_URL) return new NoEmbeddings();
  return new OpenAiCompatibleEmbeddings({
    baseURL: config.EMBEDDINGS_BASE_URL,
    apiKey: config.EMBEDDINGS_API_KEY!,
    model: config.EMBEDDINGS_MODEL!,
    dimensions: config.EMBEDDINGS_DIMENSIONS,
    timeoutMs: config.EMBEDDINGS_TIMEOUT_MS,
  });
}
