import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the public hot lists and feeds of integrations/trends, each answering the shape the site serves:
 * Weibo `GET /ajax/side/hotSearch` -> {ok:1, data:{realtime:[{word, note, num, realpos, rank, label_name, onboard_time, is_ad?}], hotgov}},
 * Zhihu `GET /api/v3/feed/topstory/hot-lists/total?limit=50` -> {data:[{type:'hot_list_feed', target:{id,title,url,excerpt,created}, detail_text}], paging},
 * Baidu `GET /api/board?platform=wise&tab=realtime` -> {success:true, data:{cards:[{component:'tabTextList', content:[{content:[{word,query,desc,hotScore,rawUrl,url,index}]}]}]}},
 * Toutiao `GET /hot-event/hot-board/?origin=toutiao_pc` -> {data:[{ClusterIdStr,Title,HotValue,Url,Label,QueryWord}], fixed_top_data, status:'success'},
 * Douyin `GET /aweme/v1/web/hot/search/list/` -> {status_code:0, data:{word_list:[{word,hot_value,position,label,event_time,sentence_id,group_id,video_count,word_cover}], trending_list, active_time}, status_msg:''},
 * Bilibili `GET /x/web-interface/popular?ps=50&pn=1` -> {code:0, message:'0', ttl:1, data:{list:[{bvid,title,desc,pubdate,stat:{view,like}}], no_more}},
 * and an RSS 2.0 (`/feed.xml`), Atom (`/atom.xml`) and JSON Feed (`/feed.json`).
 * Tests set the lists (`weibo`, `zhihu`, `baidu`, `feed`) before each refresh.
 */
export interface HotRow {
  title: string;
  heat: number;
  summary?: string;
}

export interface TrendsStandin {
  url: string;
  /** host:port, for SAFE_FETCH_ALLOW_HOSTS. */
  host: string;
  weibo: HotRow[];
  zhihu: HotRow[];
  baidu: HotRow[];
  toutiao: HotRow[];
  douyin: HotRow[];
  bilibili: HotRow[];
  feed: Array<{ title: string; link: string; summary?: string; date: string }>;
  /** Paths requested, in order. */
  received: string[];
  /** The next request to this path prefix answers this HTTP status. */
  failNext(path: string, status: number): void;
  /** The next request to this path prefix answers a body that is not the source's shape. */
  garbleNext(path: string): void;
  close(): Promise<void>;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startTrendsStandin(): Promise<TrendsStandin> {
  const fails = new Map<string, number>();
  const garbles = new Set<string>();
  const state: Omit<TrendsStandin, 'url' | 'host' | 'close' | 'failNext' | 'garbleNext'> = {
    weibo: [],
    zhihu: [],
    baidu: [],
    toutiao: [],
    douyin: [],
    bilibili: [],
    feed: [],
    received: [],
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    state.received.push(url.pathname);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const json = (body: unknown) => send(200, 'application/json; charset=utf-8', JSON.stringify(body));
    const failing = [...fails.keys()].find((p) => url.pathname.startsWith(p));
    if (failing) {
      const status = fails.get(failing)!;
      fails.delete(failing);
      return send(status, 'text/html; charset=utf-8', '<html><body>busy</body></html>');
    }
    const garbled = [...garbles].find((p) => url.pathname.startsWith(p));
    if (garbled) {
      garbles.delete(garbled);
      return send(200, 'text/html; charset=utf-8', '<html><body>请登录</body></html>');
    }
    const now = Math.floor(Date.now() / 1000);

    if (url.pathname === '/ajax/side/hotSearch') {
      const realtime: unknown[] = [];
      state.weibo.forEach((r, i) => {
        realtime.push({
          word: r.title,
          word_scheme: `#${r.title}#`,
          note: r.title,
          num: r.heat,
          raw_hot: r.heat,
          rank: i,
          realpos: i + 1,
          label_name: i === 0 ? '爆' : '',
          category: '社会',
          onboard_time: now - 3600,
          flag: 1,
        });
        // A promoted row sits in the list as the site serves it; it is not news.
        if (i === 1) realtime.push({ word: '某品牌新品限时抢购', note: '某品牌新品限时抢购', num: 999999999, is_ad: 1, realpos: 3, rank: 2, label_name: '商' });
      });
      return json({ ok: 1, data: { realtime, hotgov: { word: '#置顶#', note: '置顶' }, hotgovs: [] } });
    }
    if (url.pathname === '/api/v3/feed/topstory/hot-lists/total') {
      return json({
        data: state.zhihu.map((r, i) => ({
          type: 'hot_list_feed',
          style_type: '1',
          id: `0_${now}.${i}`,
          card_id: `Q_${600000000 + i}`,
          target: {
            id: 600000000 + i,
            title: r.title,
            url: `https://api.zhihu.com/questions/${600000000 + i}`,
            type: 'question',
            created: now - 7200,
            answer_count: 120,
            follower_count: 3400,
            excerpt: r.summary ?? '',
          },
          attached_info: 'CgA=',
          detail_text: `${Math.round(r.heat / 1e4)} 万热度`,
          trend: 0,
          debut: false,
          children: [{ type: 'answer', thumbnail: '' }],
        })),
        paging: { is_end: true, next: '', previous: '' },
        fresh_text: '热榜已更新',
      });
    }
    if (url.pathname === '/api/board') {
      return json({
        success: true,
        data: {
          cards: [
            {
              component: 'tabTextList',
              content: [
                {
                  content: state.baidu.map((r, i) => ({
                    word: r.title,
                    query: r.title,
                    desc: r.summary ?? '',
                    hotScore: String(r.heat),
                    rawUrl: `https://www.baidu.com/s?wd=${encodeURIComponent(r.title)}`,
                    url: `https://m.baidu.com/s?word=${encodeURIComponent(r.title)}`,
                    index: i,
                    hotChange: 'same',
                    hotTag: '0',
                    img: '',
                  })),
                },
              ],
              updateTime: String(now),
            },
          ],
        },
        error: {},
      });
    }
    if (url.pathname === '/hot-event/hot-board/') {
      return json({
        data: state.toutiao.map((r, i) => ({
          ClusterId: 7300000000000000000 + i,
          ClusterIdStr: String(7300000000000000000n + BigInt(i)),
          Title: r.title,
          LabelUrl: '',
          Label: i === 0 ? 'hot' : '',
          Url: `https://www.toutiao.com/trending/${7300000000000000000n + BigInt(i)}/?category_name=topic_innerflow`,
          HotValue: String(r.heat),
          Schema: '',
          Image: { url: '' },
          QueryWord: r.title,
          InterestCategory: ['society'],
        })),
        fixed_top_data: [{ Title: '置顶：权威发布', Url: 'https://www.toutiao.com/article/1/', HotValue: '0' }],
        status: 'success',
      });
    }
    if (url.pathname === '/aweme/v1/web/hot/search/list/') {
      const word = (r: HotRow, i: number) => ({
        word: r.title,
        hot_value: r.heat,
        position: i + 1,
        label: i === 0 ? 3 : 0,
        event_time: now - 1800 * (i + 1),
        sentence_id: String(2_000_000 + i),
        group_id: String(7_400_000_000_000_000_000n + BigInt(i)),
        sentence_tag: 5000,
        video_count: 12 + i,
        discuss_video_count: 3,
        word_type: 1,
        word_cover: { uri: '', url_list: [] },
        drift_info: null,
      });
      // The site serves the board in position order; the stand-in lists it last-first so the adapter must sort.
      const wordList = state.douyin.map(word).reverse();
      return json({
        status_code: 0,
        data: {
          word_list: wordList,
          // The unranked 实时上升 rows sit beside the board; they are not part of it.
          trending_list: [{ word: '实时上升：某地突发新闻', hot_value: 0, position: 1, label: 0, sentence_id: '1999999' }],
          active_time: new Date(now * 1000).toISOString().replace('T', ' ').slice(0, 19),
          recommend_list: null,
        },
        extra: { now: now * 1000 },
        log_pb: { impr_id: 'standin' },
        status_msg: '',
      });
    }
    if (url.pathname === '/x/web-interface/popular') {
      return json({
        code: 0,
        message: '0',
        ttl: 1,
        data: {
          list: state.bilibili.map((r, i) => ({
            aid: 1000 + i,
            bvid: `BV1xx411c7m${i}`,
            title: r.title,
            desc: r.summary ?? '-',
            pubdate: now - 86400,
            owner: { mid: 1, name: 'UP主' },
            stat: { view: r.heat, danmaku: 10, reply: 5, favorite: 3, coin: 2, share: 1, like: 100 },
            short_link_v2: `https://b23.tv/BV1xx411c7m${i}`,
            rcmd_reason: { content: '百万播放' },
          })),
          no_more: false,
        },
      });
    }
    if (url.pathname === '/feed.xml') {
      const items = state.feed
        .map(
          (f) =>
            `<item><title>${xml(f.title)}</title><link>${xml(f.link)}</link><description><![CDATA[<p>${f.summary ?? ''}</p>]]></description><pubDate>${new Date(f.date).toUTCString()}</pubDate></item>`,
        )
        .join('');
      return send(
        200,
        'application/rss+xml; charset=utf-8',
        `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>示例科技资讯</title><link>https://news.example.cn/</link><description>d</description>${items}</channel></rss>`,
      );
    }
    if (url.pathname === '/atom.xml') {
      const entries = state.feed
        .map(
          (f, i) =>
            `<entry><title>${xml(f.title)}</title><id>urn:x:${i}</id><link rel="alternate" href="${xml(f.link)}"/><updated>${f.date}</updated><summary>${xml(f.summary ?? '')}</summary></entry>`,
        )
        .join('');
      return send(
        200,
        'application/atom+xml; charset=utf-8',
        `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>示例 Atom 源</title><id>urn:x</id><updated>${new Date().toISOString()}</updated>${entries}</feed>`,
      );
    }
    if (url.pathname === '/feed.json') {
      return json({
        version: 'https://jsonfeed.org/version/1.1',
        title: '示例 JSON Feed',
        items: state.feed.map((f, i) => ({ id: String(i), url: f.link, title: f.title, summary: f.summary, date_published: f.date })),
      });
    }
    // A redirect into our own network: the SSRF-safe client must refuse the hop.
    if (url.pathname === '/redirect-inward') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    failNext: (path: string, status: number) => void fails.set(path, status),
    garbleNext: (path: string) => void garbles.add(path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
