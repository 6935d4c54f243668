import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datacubeArticle, datacubeUser, startWechatPublishStandin, type DatacubeArticle, type WechatPublishStandin } from '../../test/standins/wechat-mp-publish.js';
import { addDays } from './sandbox-metrics.js';
import { SessionExpiredError } from './types.js';
import { WechatMpPublisher } from './wechat-mp.js';

/** WeChat Official Account data through datacube, against the stand-in speaking its documented shapes and limits. */
describe('wechat_mp metrics (datacube stand-in)', () => {
  const creds = { appId: 'wxdata1234567890ab', appSecret: 'standin-secret-datacube-0123456' };
  // 10:00 in Shanghai on 2026-03-20: datacube's newest day is 2026-03-19.
  const now = () => Date.parse('2026-03-20T10:00:00+08:00');
  const session = JSON.stringify(creds);
  const a: DatacubeArticle = { msgid: '2247483101_1', title: '春分的茶', refDate: '2026-03-10' };
  const b: DatacubeArticle = { msgid: '2247483102_1', title: '周末去爬山', refDate: '2026-03-17' };
  const old: DatacubeArticle = { msgid: '2247483001_1', title: '旧文章', refDate: '2026-01-05' };
  let standin: WechatPublishStandin;
  let adapter: WechatMpPublisher;

  beforeAll(async () => {
    standin = await startWechatPublishStandin({ ...creds, followers: 500, now });
    standin.articles.push(a, b, old);
    adapter = new WechatMpPublisher({ apiBase: standin.url, now });
  });
  afterAll(() => standin.close());

  const cube = async (path: string, body: unknown) => {
    const t = (await (
      await fetch(`${standin.url}/cgi-bin/stable_token`, { method: 'POST', body: JSON.stringify({ grant_type: 'client_credential', appid: creds.appId, secret: creds.appSecret }) })
    ).json()) as { access_token: string };
    return (await (await fetch(`${standin.url}${path}?access_token=${t.access_token}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;
  };

  it('the stand-in refuses what datacube refuses: spans over the limit, today, begin after end, bad dates', async () => {
    expect(await cube('/datacube/getusersummary', { begin_date: '2026-03-12', end_date: '2026-03-19' })).toEqual({ errcode: 61501, errmsg: 'date range error' });
    expect(await cube('/datacube/getusercumulate', { begin_date: '2026-03-19', end_date: '2026-03-20' })).toEqual({ errcode: 61501, errmsg: 'date range error' });
    expect(await cube('/datacube/getarticlesummary', { begin_date: '2026-03-18', end_date: '2026-03-19' })).toEqual({ errcode: 61501, errmsg: 'date range error' });
    expect(await cube('/datacube/getarticletotal', { begin_date: '2026-03-19', end_date: '2026-03-18' })).toEqual({ errcode: 61501, errmsg: 'date range error' });
    expect(await cube('/datacube/getusersummary', { begin_date: '2026/03/12', end_date: '2026-03-13' })).toEqual({ errcode: 61500, errmsg: 'date format error' });
    const ok = await cube('/datacube/getusercumulate', { begin_date: '2026-03-13', end_date: '2026-03-19' });
    expect(ok.list).toHaveLength(7);
    expect((ok.list as unknown[])[6]).toEqual({ ref_date: '2026-03-19', cumulate_user: datacubeUser(creds.appId, 500, '2026-03-19').cumulate });
  });

  it('reads complete days up to yesterday in spans datacube accepts, with the figures it reports', async () => {
    standin.datacubeRequests.length = 0;
    const m = await adapter.metrics('1', session, { from: '2026-03-05', to: '2026-03-25' });
    expect(m.lastDay).toBe('2026-03-19');
    expect(m.days.map((d) => d.day)).toEqual(Array.from({ length: 15 }, (_, i) => addDays('2026-03-05', i)));

    const limit: Record<string, number> = { '/datacube/getusersummary': 7, '/datacube/getusercumulate': 7, '/datacube/getarticlesummary': 1, '/datacube/getarticletotal': 1 };
    for (const r of standin.datacubeRequests) {
      const span = (Date.parse(String(r.end)) - Date.parse(String(r.begin))) / 86_400_000 + 1;
      expect(span, `${r.path} ${String(r.begin)}..${String(r.end)}`).toBeLessThanOrEqual(limit[r.path]!);
      expect(String(r.end) <= '2026-03-19').toBe(true);
    }
    expect(standin.datacubeRequests.filter((r) => r.path === '/datacube/getusersummary')).toHaveLength(3);

    for (const d of m.days) {
      const u = datacubeUser(creds.appId, 500, d.day);
      const reads = (x: DatacubeArticle) => datacubeArticle(x, d.day).int_page_read_count - datacubeArticle(x, addDays(d.day, -1)).int_page_read_count;
      const favs = (x: DatacubeArticle) => datacubeArticle(x, d.day).add_to_fav_count - datacubeArticle(x, addDays(d.day, -1)).add_to_fav_count;
      expect(d).toEqual({
        day: d.day,
        followers: u.cumulate,
        newFollowers: u.summary.reduce((n, r) => n + r.new_user - r.cancel_user, 0),
        views: reads(a) + reads(b) + reads(old),
        likes: 0,
        collects: favs(a) + favs(b) + favs(old),
        comments: 0,
        shares: [a, b, old].reduce((n, x) => n + datacubeArticle(x, d.day).share_count - datacubeArticle(x, addDays(d.day, -1)).share_count, 0),
      });
    }
    // Followers add up: each day's cumulate is the previous one plus the net new followers.
    for (let i = 1; i < m.days.length; i++) expect(m.days[i]!.followers).toBe(m.days[i - 1]!.followers + m.days[i]!.newFollowers);

    // Article totals: A from its send day (its 7 reported days end on 03-16, then it keeps those totals), B from 03-17.
    const rows = (msgid: string) => m.notes.filter((n) => n.noteId === msgid);
    expect(rows(a.msgid).map((n) => n.day)).toEqual(Array.from({ length: 10 }, (_, i) => addDays('2026-03-10', i)));
    expect(rows(b.msgid).map((n) => n.day)).toEqual(['2026-03-17', '2026-03-18', '2026-03-19']);
    expect(rows(old.msgid)).toEqual([]);
    const final = datacubeArticle(a, '2026-03-16');
    expect(rows(a.msgid).at(-1)).toMatchObject({
      title: '春分的茶',
      views: final.int_page_read_count,
      collects: final.add_to_fav_count,
      shares: final.share_count,
      likes: 0,
      comments: 0,
    });
    expect(rows(a.msgid)[2]).toMatchObject({ day: '2026-03-12', views: datacubeArticle(a, '2026-03-12').int_page_read_count });
    expect(rows(b.msgid)[0]!.publishedAt.toISOString()).toBe('2026-03-17T04:00:00.000Z');
  });

  it('answers nothing for a range that is all today or later (the 1-day lag), without calling datacube', async () => {
    standin.datacubeRequests.length = 0;
    expect(await adapter.metrics('1', session, { from: '2026-03-20', to: '2026-03-22' })).toEqual({ lastDay: '2026-03-19', days: [], notes: [] });
    expect(standin.datacubeRequests).toEqual([]);
  });

  it('a reset secret is an expired session', async () => {
    await expect(adapter.metrics('1', JSON.stringify({ ...creds, appSecret: 'reset-by-owner' }), { from: '2026-03-18', to: '2026-03-19' })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
  });
});
