import { fetchJson, type SearchOptions, type SearchProvider, type SearchResult } from './types.js';
import { hostOf } from './tavily.js';

interface SearxReply {
  results?: Array<{ title?: string; url?: string; content?: string; engine?: string; publishedDate?: string | null }>;
}

const RANGE: Record<string, string> = { oneDay: 'day', oneWeek: 'week', oneMonth: 'month', oneYear: 'year' };

/** Self-hosted SearXNG: `GET /search?q=&format=json` (json must be enabled in settings.yml) -> results[]. */
export class SearxngSearch implements SearchProvider {
  readonly name = 'searxng' as const;
  readonly enabled = true;
  constructor(private readonly opts: { baseUrl: string }) {}

  async search(query: string, o: SearchOptions = {}): Promise<SearchResult[]> {
    const u = new URL(`${this.opts.baseUrl.replace(/\/$/, '')}/search`);
    u.searchParams.set('q', query);
    u.searchParams.set('format', 'json');
    u.searchParams.set('language', 'zh-CN');
    if (o.freshness && RANGE[o.freshness]) u.searchParams.set('time_range', RANGE[o.freshness]!);
    const body = (await fetchJson(u.toString(), { method: 'GET', headers: { accept: 'application/json' }, signal: o.signal })) as SearxReply;
    return (body.results ?? [])
      .filter((r) => r.url)
      .slice(0, o.count ?? 8)
      .map((r) => ({ title: r.title ?? r.url!, url: r.url!, snippet: r.content ?? '', siteName: hostOf(r.url!), publishedAt: r.publishedDate ?? null }));
  }
}
