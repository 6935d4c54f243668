import { FetchRefusedError, type SafeFetcher } from '../fetch/types.js';
import { TrendSourceError } from './types.js';

/** Every trends request goes through the SSRF-safe client: feed URLs are operator-typed and redirects are re-checked. */
export async function getJson(fetcher: SafeFetcher, sourceId: string, url: string, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await getBody(fetcher, sourceId, url, signal, { accept: 'application/json', ...headers });
  try {
    return JSON.parse(res.toString('utf8')) as unknown;
  } catch {
    throw new TrendSourceError(sourceId, '返回的不是 JSON', false);
  }
}

export async function getBody(fetcher: SafeFetcher, sourceId: string, url: string, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Buffer> {
  try {
    const res = await fetcher.get(url, { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, headers, ...(signal ? { signal } : {}) });
    return res.body;
  } catch (err) {
    if (err instanceof FetchRefusedError) throw new TrendSourceError(sourceId, err.message, err.transient);
    throw new TrendSourceError(sourceId, '请求失败', true);
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
