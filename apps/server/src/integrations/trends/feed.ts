import type { parseFeed } from 'feedsmith';
import type { SafeFetcher } from '../fetch/types.js';
import { getBody } from './http.js';
import { clean, TrendSourceError, type TrendItem, type TrendSource } from './types.js';

const text = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' && 'value' in v && typeof v.value === 'string' ? v.value : '');
const date = (v: unknown): Date | null => {
  if (typeof v !== 'string' || !v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

export const feedSourceId = (url: string) => `feed:${url}`;

/**
 * Any RSS 2.0, Atom, RDF or JSON Feed an operator adds (`feed=<url>` in TRENDS_SOURCES, or `topic:source:add` in the
 * admin CLI), parsed by feedsmith. Feeds carry no heat; the topic module ranks their items by position and recency.
 * A feed the operator named keeps that name; otherwise it is named by its own title (or its host until fetched).
 */
export class FeedSource implements TrendSource {
  readonly id: string;
  readonly name: string;
  readonly minIntervalMs = 15 * 60_000;
  readonly live = true;
  readonly track?: string;
  private readonly named: boolean;
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly url: string,
    opts: { name?: string; track?: string | null } = {},
  ) {
    this.id = feedSourceId(url);
    this.named = !!opts.name;
    this.name = opts.name || new URL(url).hostname;
    if (opts.track) this.track = opts.track;
  }

  async fetch(signal?: AbortSignal) {
    const raw = await getBody(this.fetcher, this.id, this.url, signal, {
      accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/xml, text/xml, */*',
    });
    let parsed: ReturnType<typeof parseFeed>;
    // Loaded on the first feed read: an install without feeds never needs it.
    const feedsmith = await import('feedsmith');
    try {
      parsed = feedsmith.parseFeed(raw.toString('utf8'));
    } catch {
      throw new TrendSourceError(this.id, '订阅源内容无法解析（不是 RSS、Atom 或 JSON Feed）', false);
    }
    const items: TrendItem[] = [];
    const push = (title: string, link: string, summary: string, published: Date | null) => {
      const t = clean(title, 150);
      if (!t || !/^https?:\/\//i.test(link)) return;
      items.push({ title: t, url: link, summary: clean(summary, 200), heat: 0, rank: items.length + 1, publishedAt: published });
    };
    let name: string | undefined;
    switch (parsed.format) {
      case 'rss':
      case 'rdf': {
        const f = parsed.feed as { title?: unknown; items?: Array<Record<string, unknown>> };
        name = text(f.title) || undefined;
        for (const it of f.items ?? []) push(text(it.title), text(it.link), text(it.description), date(it.pubDate) ?? date((it.dc as { date?: string } | undefined)?.date));
        break;
      }
      case 'atom': {
        const f = parsed.feed as { title?: unknown; entries?: Array<Record<string, unknown>> };
        name = text(f.title) || undefined;
        for (const e of f.entries ?? []) {
          const links = (e.links as Array<{ href?: string; rel?: string }> | undefined) ?? [];
          const link = links.find((l) => !l.rel || l.rel === 'alternate')?.href ?? links[0]?.href ?? '';
          push(text(e.title), link, text(e.summary) || text(e.content), date(e.published) ?? date(e.updated));
        }
        break;
      }
      case 'json': {
        const f = parsed.feed as { title?: unknown; items?: Array<Record<string, unknown>> };
        name = text(f.title) || undefined;
        for (const it of f.items ?? [])
          push(text(it.title), text(it.url) || text(it.external_url), text(it.summary) || text(it.content_text), date(it.date_published) ?? date(it.date_modified));
        break;
      }
    }
    return { ...(name && !this.named ? { name: clean(name, 30) } : {}), items };
  }
}
