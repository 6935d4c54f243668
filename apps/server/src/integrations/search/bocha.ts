import { fetchJson, SearchError, type SearchOptions, type SearchProvider, type SearchResult } from './types.js';

interface BochaReply {
  code?: number;
  msg?: string | null;
  data?: { webPages?: { value?: Array<{ name?: string; url?: string; snippet?: string; summary?: string; siteName?: string; datePublished?: string }> } };
}

/** Bocha Web Search: `POST /v1/web-search`, Bearer key, `{query, freshness, summary, count}` -> data.webPages.value[]. */
export class BochaSearch implements SearchProvider {
  readonly name = 'bocha' as const;
  readonly enabled = true;
  constructor(private readonly opts: { apiKey: string; baseUrl: string }) {}

  async search(query: string, o: SearchOptions = {}): Promise<SearchResult[]> {
    const body = (await fetchJson(`${this.opts.baseUrl.replace(/\/$/, '')}/v1/web-search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.opts.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, freshness: o.freshness ?? 'noLimit', summary: true, count: o.count ?? 8 }),
      signal: o.signal,
    })) as BochaReply;
    if (body.code !== undefined && body.code !== 200) throw new SearchError(`bocha error ${body.code}: ${body.msg ?? ''}`);
    return (body.data?.webPages?.value ?? [])
      .filter((v) => v.url)
      .map((v) => ({ title: v.name ?? v.url!, url: v.url!, snippet: v.summary || v.snippet || '', siteName: v.siteName ?? null, publishedAt: v.datePublished ?? null }));
  }
}
