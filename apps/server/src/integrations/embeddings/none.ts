import { EmbeddingsError, type EmbeddingsProvider } from './types.js';

/** Embedded default: no embeddings model is configured, so vector search is off (full-text still works), and says so. */
export class NoEmbeddings implements EmbeddingsProvider {
  readonly name = 'none' as const;
  readonly enabled = false;
  readonly modelId = null;
  async embed(): Promise<number[][]> {
    throw new EmbeddingsError('embeddings are not configured (EMBEDDINGS_BASE_URL): vector search is off');
  }
}
