import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SafeFetch } from '../fetch/safe-fetch.js';
import { startTrendsStandin, type TrendsStandin } from '../../test/standins/trends.js';
import { createTrendSources, SNAPSHOT_DATE } from './index.js';
import { parseHeat, TrendSourceError, type TrendSource } from './types.js';

let s: TrendsStandin;
let fetcher: SafeFetch;
beforeAll(async () => {
  s = await startTrendsStandin();
  fetcher = new SafeFetch({ allowHosts: [s.host] });
});
afterAll(async () => {
  await fetcher.close();
  await s.close();
});
beforeEach(() => {
  s.weibo = [
    { title: '今冬首场寒潮来袭', heat: 2_345_678 },
    { title: '考研报名人数公布', heat: 1_200_000 },
    { title: '国产大模型发布新版本', heat: 800_000 },
  ];
  s.zhihu = [
    { title: '如何看待今冬首场寒潮？', heat: 12_340_000, summary: '气象台发布寒潮预警' },
    { title: '程序员35岁以后怎么办？', heat: 5_000_000 },
  ];
  s.baidu = [
    { title: '寒潮预警升级', heat: 4_936_960, summary: '多地气温骤降' },
    { title: '双11快递量创新高', heat: 4_100_000 },
  ];
  s.toutiao = [
    { title: '多地迎来降温', heat: 31_234_567 },
    { title: '新能源车销量公布', heat: 20_000_000 },
  ];
  s.douyin = [
    { title: '冬日第一场雪', heat: 11_902_345 },
    { title: '家常菜的十种做法', heat: 9_876_543 },
    { title: '新手学滑雪要注意什么', heat: 7_000_000 },
  ];
  s.bilibili = [
    { title: '【4K】冬日城市延时摄影', heat: 2_345_678, summary: '拍了三个月' },
    { title: '手把手教你做红烧肉', heat: 1_000_000 },
  ];
  s.feed = [
    { title: '芯片新工艺量产', link: 'https://news.example.cn/a/1', summary: '新一代芯片', date: '2026-11-22T08:00:00Z' },
    { title: '手机影像评测', link: 'https://news.example.cn/a/2', date: '2026-11-21T08:00:00Z' },
  ];
});

const source = (kind: string): TrendSource => createTrendSources(kind === 'feed' ? `feed=${s.url}/feed.xml` : `${kind}=${s.url}`, fetcher)[0]!;

/** What every live hot list must do, whatever its vendor's shape. */
describe.each([
  ['weibo', '微博热搜', () => s.weibo, '/ajax/side/hotSearch'],
  ['zhihu', '知乎热榜', () => s.zhihu, '/api/v3/feed/topstory/hot-lists/total'],
  ['baidu', '百度热搜', () => s.baidu, '/api/board'],
  ['toutiao', '头条热榜', () => s.toutiao, '/hot-event/hot-board/'],
  ['douyin', '抖音热榜', () => s.douyin, '/aweme/v1/web/hot/search/list/'],
  ['bilibili', 'B站热门', () => s.bilibili, '/x/web-interface/popular'],
] as const)('trend source contract: %s', (kind, name, rows, path) => {
  it('returns the list in order with titles, page links and heat in the source unit', async () => {
    const src = source(kind);
    expect(src).toMatchObject({ id: kind, name, live: true });
    expect(src.minIntervalMs).toBeGreaterThanOrEqual(60_000);
    const { items } = await src.fetch();
    expect(items.map((i) => i.title)).toEqual(rows().map((r) => r.title));
    expect(items.map((i) => i.rank)).toEqual(rows().map((_, i) => i + 1));
    for (const [i, it] of items.entries()) {
      expect(it.url).toMatch(/^https:\/\//);
      expect(it.heat).toBe(kind === 'zhihu' ? Math.round(rows()[i]!.heat / 1e4) * 1e4 : rows()[i]!.heat);
    }
    expect(s.received.at(-1)).toBe(path);
  });

  it('an HTTP error is a transient TrendSourceError; a body of another shape is a permanent one', async () => {
    const src = source(kind);
    s.failNext(path, 503);
    const e1 = await src.fetch().catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(TrendSourceError);
    expect((e1 as TrendSourceError).transient).toBe(true);
    s.garbleNext(path);
    const e2 = await src.fetch().catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(TrendSourceError);
    expect((e2 as TrendSourceError).transient).toBe(false);
    expect((e2 as Error).message).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('vendor specifics', () => {
  it('weibo skips promoted rows and links to the hashtag search', async () => {
    const { items } = await source('weibo').fetch();
    expect(items.some((i) => i.title.includes('限时抢购'))).toBe(false);
    expect(items[0]!.url).toBe(`https://s.weibo.com/weibo?q=${encodeURIComponent('#今冬首场寒潮来袭#')}`);
    expect(items[0]!.publishedAt).toBeInstanceOf(Date);
  });

  it('zhihu turns the API address of a question into its page and keeps the excerpt', async () => {
    const { items } = await source('zhihu').fetch();
    expect(items[0]!.url).toBe('https://www.zhihu.com/question/600000000');
    expect(items[0]!.summary).toBe('气象台发布寒潮预警');
  });

  it('toutiao leaves out the pinned editorial rows; bilibili links the video page and counts plays', async () => {
    const tt = await source('toutiao').fetch();
    expect(tt.items.some((i) => i.title.includes('置顶'))).toBe(false);
    expect(tt.items[0]!.url).toMatch(/^https:\/\/www\.toutiao\.com\/trending\//);
    const bili = await source('bilibili').fetch();
    expect(bili.items[0]).toMatchObject({ url: 'https://www.bilibili.com/video/BV1xx411c7m0', heat: 2_345_678, summary: '拍了三个月' });
  });

  it('douyin keeps the ranked board in position order (not the 实时上升 rows), links each entry’s board page and dates it', async () => {
    const { items } = await source('douyin').fetch();
    expect(items.some((i) => i.title.includes('实时上升'))).toBe(false);
    expect(items[0]).toMatchObject({ title: '冬日第一场雪', url: 'https://www.douyin.com/hot/2000000', heat: 11_902_345, rank: 1 });
    expect(items[0]!.publishedAt).toBeInstanceOf(Date);
    expect(s.received.at(-1)).toBe('/aweme/v1/web/hot/search/list/');
  });

  it('parses heat figures as the sites write them', () => {
    expect(parseHeat('1234 万热度')).toBe(12_340_000);
    expect(parseHeat('3.5亿')).toBe(350_000_000);
    expect(parseHeat('4936960')).toBe(4_936_960);
    expect(parseHeat(undefined)).toBe(0);
  });
});

describe.each(['/feed.xml', '/atom.xml', '/feed.json'])('feed source contract: %s', (path) => {
  it('reads titles, links, summaries and dates with feedsmith, and names itself from the feed', async () => {
    const src = createTrendSources(`feed=${s.url}${path}`, fetcher)[0]!;
    expect(src.id).toBe(`feed:${s.url}${path}`);
    const res = await src.fetch();
    expect(res.name).toBeTruthy();
    expect(res.items.map((i) => [i.title, i.url, i.heat, i.rank])).toEqual([
      ['芯片新工艺量产', 'https://news.example.cn/a/1', 0, 1],
      ['手机影像评测', 'https://news.example.cn/a/2', 0, 2],
    ]);
    expect(res.items[0]!.publishedAt?.toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(res.items[0]!.summary).toBe('新一代芯片');
  });
});

describe('feed safety and configuration', () => {
  it('refuses a feed on our own network and a redirect inward (SSRF-safe client)', async () => {
    const plain = new SafeFetch();
    try {
      const inner = createTrendSources(`feed=${s.url}/feed.xml`, plain)[0]!;
      await expect(inner.fetch()).rejects.toBeInstanceOf(TrendSourceError);
    } finally {
      await plain.close();
    }
    const hop = createTrendSources(`feed=${s.url}/redirect-inward`, fetcher)[0]!;
    await expect(hop.fetch()).rejects.toBeInstanceOf(TrendSourceError);
  });

  it('a page that is not a feed is a permanent error', async () => {
    s.garbleNext('/feed.xml');
    const err = await source('feed')
      .fetch()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrendSourceError);
    expect((err as TrendSourceError).transient).toBe(false);
  });

  it('TRENDS_SOURCES: unknown names, a feed without URL and duplicates stop start-up', () => {
    expect(() => createTrendSources('weibo,tiktok', fetcher)).toThrow(/unknown source tiktok/);
    expect(() => createTrendSources('feed', fetcher)).toThrow(/feed needs a URL/);
    expect(() => createTrendSources('weibo,weibo', fetcher)).toThrow(/twice/);
    expect(() => createTrendSources('baidu=ftp://x', fetcher)).toThrow(/http\(s\) URL/);
    expect(createTrendSources('weibo,zhihu,baidu,toutiao,douyin,bilibili,snapshot', fetcher).map((x) => x.id)).toEqual([
      'weibo',
      'zhihu',
      'baidu',
      'toutiao',
      'douyin',
      'bilibili',
      'snapshot',
    ]);
  });

  it('the embedded snapshot is dated, not live, and never empty', async () => {
    const snap = createTrendSources('snapshot', fetcher)[0]!;
    expect(snap.live).toBe(false);
    expect(snap.name).toContain(SNAPSHOT_DATE);
    const { items } = await snap.fetch();
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(items.every((i) => i.publishedAt?.toISOString().startsWith(SNAPSHOT_DATE.slice(0, 8)))).toBe(true);
  });
});
