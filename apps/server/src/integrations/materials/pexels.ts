import { z } from 'zod';
import type { SafeFetcher } from '../fetch/types.js';
import { FetchRefusedError } from '../fetch/types.js';
import { MaterialNotFoundError, MaterialRateLimitedError, MaterialUpstreamError, type MaterialPage, type MaterialPhoto, type MaterialSearch } from './types.js';

export interface PexelsOptions {
  /** https://api.pexels.com/v1 (or a stand-in speaking its protocol). */
  baseURL: string;
  apiKey: string;
  perPage: number;
  timeoutMs: number;
  /** Largest picture accepted. */
  maxBytes: number;
  /** Every picture URL (on the vendor's CDN) is fetched through the SSRF-safe client. */
  fetcher: SafeFetcher;
  fetchImpl?: typeof fetch;
}

// The reply is validated: a vendor answering something else is an upstream error, never a crash or a fake photo.
const photoSchema = z.object({
  id: z.union([z.number(), z.string()]).transform(String),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string(),
  alt: z.string().nullish(),
  photographer: z.string().nullish(),
  photographer_url: z.string().nullish(),
  src: z.object({ large2x: z.string().optional(), large: z.string(), medium: z.string().optional(), small: z.string().optional(), tiny: z.string().optional() }),
});
const searchSchema = z.object({ page: z.number().int(), total_results: z.number().int(), photos: z.array(photoSchema) });

const toPhoto = (p: z.output<typeof photoSchema>): MaterialPhoto => ({
  id: p.id,
  width: p.width,
  height: p.height,
  thumbUrl: p.src.medium ?? p.src.small ?? p.src.large,
  // large2x is about 1880px on its long side: enough for a 1440px card edge without pulling the original.
  imageUrl: p.src.large2x ?? p.src.large,
  alt: p.alt ?? '',
  author: p.photographer ?? '',
  authorUrl: p.photographer_url ?? '',
  pageUrl: p.url,
});

/** Pexels API v1: `GET /search?query=&page=&per_page=&orientation=portrait`, `GET /photos/:id`, key in `Authorization`. */
export class PexelsMaterialSearch implements MaterialSearch {
  readonly id = 'pexels';
  readonly enabled = true;

  constructor(private readonly o: PexelsOptions) {}

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    let res: Response;
    try {
      res = await (this.o.fetchImpl ?? fetch)(`${this.o.baseURL.replace(/\/+$/, '')}${path}`, {
        headers: { authorization: this.o.apiKey, accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new MaterialUpstreamError(`materials request failed: ${err instanceof Error ? err.name : 'error'}`);
    }
    if (res.status === 404) throw new MaterialNotFoundError('photo not found', '404');
    if (res.status === 429) throw new MaterialRateLimitedError('rate limited', '429');
    if (!res.ok) throw new MaterialUpstreamError(`HTTP ${res.status}`, String(res.status));
    try {
      return await res.json();
    } catch {
      throw new MaterialUpstreamError('materials reply is not JSON');
    }
  }

  async search(query: string, page: number, signal?: AbortSignal): Promise<MaterialPage> {
    const qs = new URLSearchParams({ query, page: String(page), per_page: String(this.o.perPage), orientation: 'portrait', locale: 'zh-CN' });
    const parsed = searchSchema.safeParse(await this.get(`/search?${qs}`, signal));
    if (!parsed.success) throw new MaterialUpstreamError('search reply is not in the Pexels format');
    return { page: parsed.data.page, total: parsed.data.total_results, items: parsed.data.photos.map(toPhoto) };
  }

  async download(photoId: string, signal?: AbortSignal): Promise<{ bytes: Buffer; photo: MaterialPhoto }> {
    const parsed = photoSchema.safeParse(await this.get(`/photos/${encodeURIComponent(photoId)}`, signal));
    if (!parsed.success) throw new MaterialUpstreamError('photo reply is not in the Pexels format');
    const photo = toPhoto(parsed.data);
    try {
      const img = await this.o.fetcher.image(photo.imageUrl, { maxBytes: this.o.maxBytes, timeoutMs: this.o.timeoutMs, signal });
      return { bytes: img.body, photo };
    } catch (err) {
      if (err instanceof FetchRefusedError) throw new MaterialUpstreamError(`picture URL refused: ${err.reason}`, err.reason);
      throw new MaterialUpstreamError(`picture download failed: ${err instanceof Error ? err.name : 'error'}`);
    }
  }
}
