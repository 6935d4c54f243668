import OpenAI, { APIError } from 'openai';
import { EmbeddingsError, type EmbeddingsProvider } from './types.js';

export interface OpenAiEmbeddingsOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Sent as `dimensions` (text-embedding-3, text-embedding-v3, embedding-3 accept it); unset = the model's own size. */
  dimensions?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * `POST {baseURL}/embeddings` through the openai SDK: {model, input: string[], encoding_format: 'float'} ->
 * {object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}. Float is asked for explicitly:
 * the SDK's default is base64, which several compatible vendors do not implement.
 */
export class OpenAiCompatibleEmbeddings implements EmbeddingsProvider {
  readonly name = 'openai-compatible' as const;
  readonly enabled = true;
  readonly modelId: string;
  private readonly client: OpenAI;

  constructor(private readonly opts: OpenAiEmbeddingsOptions) {
    this.modelId = opts.dimensions ? `${opts.model}@${opts.dimensions}` : opts.model;
    // The SDK retries 408/409/429/5xx and connection failures with backoff.
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey, timeout: opts.timeoutMs ?? 30_000, maxRetries: opts.maxRetries ?? 2 });
  }

  async embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<number[][]> {
    if (!texts.length) return [];
    let res;
    try {
      res = await this.client.embeddings.create(
        { model: this.opts.model, input: texts, encoding_format: 'float', ...(this.opts.dimensions ? { dimensions: this.opts.dimensions } : {}) },
        { signal: opts.signal },
      );
    } catch (err) {
      if (err instanceof APIError) throw new EmbeddingsError(`embeddings failed (HTTP ${err.status ?? '-'}): ${err.message}`, err.status);
      throw new EmbeddingsError(`embeddings request failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Vendors may answer out of order: `index` says which input each vector belongs to.
    const out: number[][] = new Array(texts.length);
    for (const d of res.data ?? []) {
      if (typeof d.index === 'number' && Array.isArray(d.embedding)) out[d.index] = d.embedding;
    }
    const dims = out[0]?.length ?? 0;
    for (let i = 0; i < texts.length; i++) {
      if (!out[i] || !out[i]!.length) throw new EmbeddingsError(`embeddings answer has no vector for input ${i}`);
      if (out[i]!.length !== dims) throw new EmbeddingsError('embeddings answer mixes vector sizes');
    }
    if (this.opts.dimensions && dims !== this.opts.dimensions) throw new EmbeddingsError(`embeddings answer has ${dims} dimensions, ${this.opts.dimensions} were asked for`);
    return out;
  }
}
