import type { SafeFetcher } from '../fetch/types.js';
import { FetchRefusedError } from '../fetch/types.js';
import { ImageGenContentFilteredError, ImageGenRateLimitedError, ImageGenUpstreamError, type GeneratedImage, type ImageGenerator, type ImageGenRequest } from './types.js';

export interface OpenAiImagesOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  size: string;
  /** '' sends none (gpt-image answers b64_json always; some vendors only URLs). */
  responseFormat: '' | 'b64_json' | 'url';
  timeoutMs: number;
  /** Largest picture accepted, inline or fetched. */
  maxBytes: number;
  /** Pictures answered as URLs are fetched through the SSRF-safe client, like any URL from outside. */
  fetcher: SafeFetcher;
  fetchImpl?: typeof fetch;
}

interface ImagesReply {
  data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  error?: { message?: string; code?: string | number | null; type?: string };
}

const FILTER_CODES = /content_policy|content_filter|data_inspection|sensitive|safety|moderation/i;

/** `POST {baseURL}/images/generations` (OpenAI's images API, which the Chinese vendors' compatible modes follow). */
export class OpenAiImageGenerator implements ImageGenerator {
  readonly id = 'openai';
  readonly enabled = true;

  constructor(private readonly o: OpenAiImagesOptions) {}

  get model() {
    return this.o.model;
  }

  async generate(req: ImageGenRequest): Promise<GeneratedImage> {
    const signal = req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(this.o.timeoutMs)]) : AbortSignal.timeout(this.o.timeoutMs);
    const body: Record<string, unknown> = { model: this.o.model, prompt: req.prompt, n: 1, size: this.o.size };
    if (this.o.responseFormat) body.response_format = this.o.responseFormat;
    let res: Response;
    try {
      res = await (this.o.fetchImpl ?? fetch)(`${this.o.baseURL.replace(/\/+$/, '')}/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.o.apiKey}` },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      throw new ImageGenUpstreamError(`images request failed: ${err instanceof Error ? err.name : 'error'}`);
    }
    const text = await res.text().catch(() => '');
    let json: ImagesReply;
    try {
      json = text ? (JSON.parse(text) as ImagesReply) : {};
    } catch {
      throw new ImageGenUpstreamError(`images reply is not JSON (HTTP ${res.status})`, String(res.status));
    }
    if (!res.ok || json.error) {
      const code = String(json.error?.code ?? json.error?.type ?? res.status);
      const message = json.error?.message ?? `HTTP ${res.status}`;
      if (res.status === 429) throw new ImageGenRateLimitedError(message, code);
      if (FILTER_CODES.test(code) || FILTER_CODES.test(message)) throw new ImageGenContentFilteredError(message, code);
      throw new ImageGenUpstreamError(message, code);
    }
    const item = json.data?.[0];
    if (item?.b64_json) {
      // base64 of maxBytes is 4/3 as long; refuse before decoding anything larger.
      if (item.b64_json.length > Math.ceil((this.o.maxBytes * 4) / 3) + 4) throw new ImageGenUpstreamError('picture too large');
      return { bytes: Buffer.from(item.b64_json, 'base64'), revisedPrompt: item.revised_prompt };
    }
    if (item?.url) {
      try {
        const img = await this.o.fetcher.image(item.url, { maxBytes: this.o.maxBytes, timeoutMs: Math.min(this.o.timeoutMs, 60_000), signal: req.signal });
        return { bytes: img.body, revisedPrompt: item.revised_prompt };
      } catch (err) {
        if (err instanceof FetchRefusedError) throw new ImageGenUpstreamError(`picture URL refused: ${err.reason}`, err.reason);
        throw err;
      }
    }
    throw new ImageGenUpstreamError('images reply has no picture');
  }
}
