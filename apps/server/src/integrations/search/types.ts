/** Web search for "online search" while writing. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  siteName: string | null;
  publishedAt: string | null;
}

export interface SearchOptions {
  count?: number;
  /** Bocha: oneDay | oneWeek | oneMonth | oneYear | noLimit. */
  freshness?: 'oneDay' | 'oneWeek' | 'oneMonth' | 'oneYear' | 'noLimit';
  signal?: AbortSignal;
}

export interface SearchProvider {
  readonly name: 'none' | 'bocha' | 'tavily' | 'searxng';
  /** False for `none`: online search is not configured. */
  readonly enabled: boolean;
  search(query: string, opts?: SearchOptions): Promise<SearchResult[]>;
}

export class SearchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

/** POSTs or GETs JSON with a timeout; non-2xx becomes SearchError with the vendor's message. */
export async function fetchJson(url: string, init: RequestInit & { timeoutMs?: number }): Promise<unknown> {
  const signal = init.signal ?? AbortSignal.timeout(init.timeoutMs ?? 15_000);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (err) {
    throw new SearchError(`search request failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new SearchError(`search answered non-JSON (HTTP ${res.status})`, res.status);
  }
  if (!res.ok) {
    const b = body as { msg?: string; message?: string; detail?: unknown; error?: unknown } | null;
    const msg = b?.msg ?? b?.message ?? (typeof b?.detail === 'string' ? b.detail : JSON.stringify(b?.detail ?? b?.error ?? ''));
    throw new SearchError(`search failed (HTTP ${res.status}): ${msg}`, res.status);
  }
  return body;
}
