import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSearchStandin, type SearchStandin } from '../../test/standins/web-search.js';
import { BochaSearch } from './bocha.js';
import { NoSearch } from './none.js';
import { SearxngSearch } from './searxng.js';
import { TavilySearch } from './tavily.js';
import { SearchError, type SearchProvider } from './types.js';

let standin: SearchStandin;
beforeAll(async () => {
  standin = await startSearchStandin();
});
afterAll(async () => {
  await standin?.close();
});

const vendors: Array<[string, (key?: string) => SearchProvider]> = [
  ['bocha', (key) => new BochaSearch({ apiKey: key ?? standin.apiKey, baseUrl: standin.url })],
  ['tavily', (key) => new TavilySearch({ apiKey: key ?? standin.apiKey, baseUrl: standin.url })],
  ['searxng', () => new SearxngSearch({ baseUrl: standin.url })],
];

describe.each(vendors)('search contract: %s', (name, make) => {
  it('returns titled results with absolute URLs and snippets, best first, at most count', async () => {
    const results = await make().search('城市骑行', { count: 2 });
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(2);
    for (const r of results) {
      expect(r.title).toBeTruthy();
      expect(r.url).toMatch(/^https:\/\//);
      expect(r.snippet).toContain('城市骑行');
    }
    expect(results[0]!.title).toBe('城市骑行：权威解读');
    expect(standin.received.at(-1)).toMatchObject({ vendor: name, query: '城市骑行' });
  });

  it('is enabled', () => {
    expect(make().enabled).toBe(true);
  });

  it('vendor errors become SearchError', async () => {
    standin.failNext(429);
    await expect(make().search('x')).rejects.toBeInstanceOf(SearchError);
  });
});

describe('vendor specifics', () => {
  it('bocha and tavily send the Bearer key; a wrong key is refused', async () => {
    await expect(new BochaSearch({ apiKey: 'wrong', baseUrl: standin.url }).search('x')).rejects.toThrow(/401/);
    await expect(new TavilySearch({ apiKey: 'wrong', baseUrl: standin.url }).search('x')).rejects.toThrow(/401/);
  });

  it('bocha asks for summaries and prefers them over snippets', async () => {
    const [first] = await new BochaSearch({ apiKey: standin.apiKey, baseUrl: standin.url }).search('骑行');
    expect(first!.snippet).toContain('（摘要）');
    expect(first!.siteName).toBe('示例新闻');
    expect(standin.received.at(-1)!.body).toMatchObject({ query: '骑行', summary: true, freshness: 'noLimit' });
  });

  it('searxng without json output enabled is a clear error', async () => {
    standin.searxJsonDisabled = true;
    try {
      await expect(new SearxngSearch({ baseUrl: standin.url }).search('x')).rejects.toThrow(/403/);
    } finally {
      standin.searxJsonDisabled = false;
    }
  });

  it('none is disabled and refuses to search', async () => {
    const none = new NoSearch();
    expect(none.enabled).toBe(false);
    await expect(none.search()).rejects.toThrow(/not configured/);
  });
});
