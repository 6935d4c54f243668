import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the web search vendors of notes/integrations.md, each speaking its own shape:
 * Bocha `POST /v1/web-search` (Bearer) -> {code:200, data:{webPages:{value:[{name,url,snippet,summary,siteName,datePublished}]}}},
 * Tavily `POST /search` (Bearer) -> {query, results:[{title,url,content,score}]},
 * SearXNG `GET /search?q=&format=json` -> {query, results:[{title,url,content,engine,publishedDate}]} (403 when json is off).
 */
export interface SearchStandin {
  url: string;
  apiKey: string;
  received: Array<{ vendor: string; query: string; body?: Record<string, unknown> }>;
  /** The next request answers this HTTP status with the vendor's error shape. */
  failNext(status: number): void;
  /** SearXNG only: behave as if `json` were not enabled in settings.yml. */
  searxJsonDisabled: boolean;
  close(): Promise<void>;
}

const pages = (q: string) => [
  { title: `${q}：权威解读`, url: `https://news.example.cn/a/${encodeURIComponent(q)}`, text: `关于${q}的最新报道与数据。`, site: '示例新闻', date: '2025-06-01T08:00:00+08:00' },
  { title: `${q} 入门指南`, url: 'https://wiki.example.org/guide', text: `${q}的基础知识与常见问题。`, site: '示例百科', date: '2024-11-20T00:00:00+08:00' },
  { title: `${q} 用户讨论`, url: 'https://forum.example.com/t/1', text: `网友关于${q}的经验分享。`, site: '示例论坛', date: null },
];

export async function startSearchStandin(opts: { apiKey?: string } = {}): Promise<SearchStandin> {
  const apiKey = opts.apiKey ?? 'search-key-standin';
  const received: SearchStandin['received'] = [];
  let failStatus: number | null = null;
  const state = { searxJsonDisabled: false };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return json(400, { code: 400, msg: 'invalid json' });
      }
      const authed = req.headers.authorization === `Bearer ${apiKey}`;
      const fail = failStatus;
      failStatus = null;

      if (req.method === 'POST' && url.pathname === '/v1/web-search') {
        if (!authed) return json(401, { code: 401, msg: 'Invalid API KEY', log_id: 'x' });
        if (fail) return json(fail, { code: fail, msg: fail === 429 ? 'You have reached the request limit' : 'server error', log_id: 'x' });
        const query = String(body.query ?? '');
        if (!query) return json(400, { code: 400, msg: 'query is required', log_id: 'x' });
        received.push({ vendor: 'bocha', query, body });
        const count = Number(body.count ?? 10);
        return json(200, {
          code: 200,
          log_id: 'standin',
          msg: null,
          data: {
            _type: 'SearchResponse',
            queryContext: { originalQuery: query },
            webPages: {
              webSearchUrl: '',
              totalEstimatedMatches: 3,
              value: pages(query)
                .slice(0, count)
                .map((p, i) => ({
                  id: `https://api.bochaai.com/v1/#WebPages.${i}`,
                  name: p.title,
                  url: p.url,
                  displayUrl: p.url,
                  snippet: p.text,
                  summary: body.summary ? `${p.text}（摘要）` : undefined,
                  siteName: p.site,
                  siteIcon: '',
                  datePublished: p.date,
                  dateLastCrawled: p.date,
                  cachedPageUrl: null,
                  language: null,
                  isFamilyFriendly: null,
                  isNavigational: null,
                })),
            },
          },
        });
      }
      if (req.method === 'POST' && url.pathname === '/search') {
        const keyInBody = body.api_key === apiKey;
        if (!authed && !keyInBody) return json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
        if (fail) return json(fail, { detail: { error: fail === 429 ? 'Rate limit exceeded' : 'Internal error' } });
        const query = String(body.query ?? '');
        if (!query) return json(400, { detail: { error: 'Query is missing.' } });
        received.push({ vendor: 'tavily', query, body });
        const max = Number(body.max_results ?? 5);
        return json(200, {
          query,
          follow_up_questions: null,
          answer: null,
          images: [],
          results: pages(query)
            .slice(0, max)
            .map((p, i) => ({ title: p.title, url: p.url, content: p.text, score: 0.9 - i * 0.2, raw_content: null }))
            .reverse(),
          response_time: 0.5,
        });
      }
      if (req.method === 'GET' && url.pathname === '/search') {
        if (state.searxJsonDisabled || url.searchParams.get('format') !== 'json') {
          res.writeHead(403, { 'content-type': 'text/html' });
          return res.end('<html><body>403 Forbidden</body></html>');
        }
        if (fail) return json(fail, { error: 'search engines failed' });
        const query = url.searchParams.get('q') ?? '';
        received.push({ vendor: 'searxng', query });
        return json(200, {
          query,
          number_of_results: 3,
          results: pages(query).map((p, i) => ({
            url: p.url,
            title: p.title,
            content: p.text,
            engine: i ? 'bing' : 'baidu',
            engines: ['baidu'],
            score: 1 - i * 0.1,
            category: 'general',
            publishedDate: p.date,
          })),
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        });
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    received,
    failNext(status) {
      failStatus = status;
    },
    get searxJsonDisabled() {
      return state.searxJsonDisabled;
    },
    set searxJsonDisabled(v) {
      state.searxJsonDisabled = v;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
