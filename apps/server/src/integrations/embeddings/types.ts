/** Text embeddings for 知识库 vector search (hybrid with full-text). */
export interface EmbeddingsProvider {
  readonly name: 'none' | 'openai-compatible';
  /** False for `none`: vector search is off and the library searches full-text only. */
  readonly enabled: boolean;
  /**
   * What stored vectors are compared by: the model name, plus the requested size when one is set (the same model
   * at another size gives incomparable vectors). A change re-embeds the library. null when disabled.
   */
  readonly modelId: string | null;
  /** Embeds `texts` in order, one vector each (all of one length). Throws EmbeddingsError. */
  embed(texts: string[], opts?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Texts per request: OpenAI allows 2048, DashScope text-embedding-v3 10, Zhipu 64; 10 suits all of them. */
export const EMBED_BATCH = 10;

export class EmbeddingsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingsError';
  }
}
