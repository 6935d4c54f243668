import { fetchJson, type SearchOptions, type SearchProvider, type SearchResult } from './types.js';

interface TavilyReply {
  results?: Array<{ title?: string; url?: string; content?: string; score?: number; published_date?: string }>;
}

const DAYS: Record<string, string> = { oneDay: 'day', oneWeek: 'week', oneMonth: 'month', oneYear: 'year' };

/** Tavily: `POST /search`, Bearer key -> results[]{title, url, content, score}. */
export class TavilySearch implements SearchProvider {
  readonly name = 'tavily' as const;
  readonly enabled = true;
  constructor(private readonly opts: { apiKey: string; baseUrl: string }) {}

  async search(query: string, o: SearchOptions = {}): Promise<SearchResult[]> {
    const body = (await fetchJson(`${this.opts.baseUrl.replace(/\/$/, '')}/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.opts.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, max_results: o.count ?? 8, search_depth: 'basic', ...(o.freshness && DAYS[o.freshness] ? { time_range: DAYS[o.freshness] } : {}) }),
      signal: o.signal,
    })) as TavilyReply;
    return (body.results ?? [])
      .filter((r) => r.url)
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
      .map((r) => ({ title: r.title ?? r.url!, url: r.url!, snippet: r.content ?? '', siteName: hostOf(r.url!), publishedAt: r.published_date ?? null }));
  }
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
