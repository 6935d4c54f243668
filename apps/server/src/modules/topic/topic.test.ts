import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ErrorCode,
  type Persona,
  type MapItem,
  type TopicAngles,
  type TopicCollectPage,
  type TopicHotPage,
  type TopicItem,
  type TrackInfo,
  type TrackSearchResult,
  type UserProfile,
} from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { startTrendsStandin, type TrendsStandin } from '../../test/standins/trends.js';
import { pointsLedger, topicItems, topicSources } from '../../db/schema/index.js';
import { SNAPSHOT_DATE } from '../../integrations/trends/index.js';
import { REFRESH_JOB } from './topic.module.js';
import { commands } from '../../cli/commands.js';

const angleJson = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ angle: `角度${i + 1}`, title: `模型标题${i + 1}`, hook: `模型开头${i + 1}` })));

describeOnDatabases('topics on %s', (dbKind) => {
  let t: TestApp;
  let s: TrendsStandin;
  let llm: OpenAiStandin;
  let a: Awaited<ReturnType<typeof loginByPhone>>;
  let b: Awaited<ReturnType<typeof loginByPhone>>;

  beforeAll(async () => {
    s = await startTrendsStandin();
    llm = await startOpenAiStandin({ model: 'standin-chat' });
    llm.respond = () => ({ content: `好的：\n\`\`\`json\n${angleJson(6)}\n\`\`\`` });
    s.weibo = [
      { title: '今冬首场寒潮来袭', heat: 2_345_678 },
      { title: '考研报名人数公布', heat: 1_200_000 },
      { title: '国产大模型发布新版本', heat: 800_000 },
    ];
    s.zhihu = [
      { title: '如何看待今冬首场寒潮？', heat: 12_340_000, summary: '中央气象台发布寒潮预警' },
      { title: '冬天在家吃火锅，底料怎么选？', heat: 3_000_000 },
    ];
    s.baidu = [
      { title: '寒潮预警升级', heat: 4_936_960, summary: '多地气温骤降' },
      { title: '双11快递量创新高', heat: 4_100_000 },
    ];
    s.feed = [{ title: '手机影像评测：三款旗舰对比', link: 'https://news.example.cn/a/2', date: new Date(Date.now() - 3600_000).toISOString() }];
    t = await startTestApp({
      db: dbKind,
      env: {
        TRENDS_SOURCES: `weibo=${s.url},zhihu=${s.url},baidu=${s.url},feed=${s.url}/feed.xml,snapshot`,
        SAFE_FETCH_ALLOW_HOSTS: s.host,
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: llm.baseURL, apiKey: llm.apiKey, model: 'standin-chat' }]),
        LLM_DEFAULT_MODEL: 'offline',
        LLM_RETRY_BASE_MS: '1',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    a = await loginByPhone(t);
    b = await loginByPhone(t);
  });
  afterAll(async () => {
    await t?.close();
    await s?.close();
    await llm?.close();
  });

  const hot = (token: string, query: Record<string, string | number> = {}) => t.call<TopicHotPage>('GET', '/topic/v3/hot', { token, query });
  const byTitle = async (title: string) => (await hot(a.tokenValue, { pageSize: 100 })).data.records.find((r) => r.title === title)!;

  it('every topic route needs a session', async () => {
    for (const [m, p] of [
      ['GET', '/topic/v3/track/info'],
      ['POST', '/topic/v3/track/save'],
      ['GET', '/topic/v3/track/search?keyword=a'],
      ['GET', '/topic/v3/hot'],
      ['POST', '/topic/v3/collect'],
      ['POST', '/topic/v3/suggest'],
      ['POST', '/topic/v3/map/save'],
      ['GET', '/topic/v3/map/list'],
    ] as const) {
      expect((await t.call(m, p)).code, p).toBe(ErrorCode.NOT_LOGGED_IN);
    }
  });

  it('track/info lists the seeded system tracks with sub-tracks and the user’s (empty) selection', async () => {
    const res = await t.call<TrackInfo>('GET', '/topic/v3/track/info', { token: a.tokenValue });
    expect(res.code).toBe(0);
    const names = res.data.trackData.map((x) => x.name);
    for (const n of ['美食', '母婴', '职场', '科技数码', '教育', '旅行', '健康', '财经', '美妆', '家居']) expect(names).toContain(n);
    expect(res.data.trackData.find((x) => x.name === '科技数码')!.children.map((c) => c.name)).toContain('人工智能');
    expect(res.data).toMatchObject({ customTrackData: [], isCreatorType: false, sysTrack: [], userTrack: [] });
    // Onboarding (creator type) flips isCreatorType.
    expect((await t.call('POST', '/user/fill/info', { token: a.tokenValue, body: { creatorType: 'personal', industries: ['教育'] } })).code).toBe(0);
    expect((await t.call<TrackInfo>('GET', '/topic/v3/track/info', { token: a.tokenValue })).data.isCreatorType).toBe(true);
  });

  it('track/save refuses bad input naming the field and changes nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ sysTrack: '美食' }, /sysTrack/],
      [{ sysTrack: ['不存在的赛道'] }, /sysTrack.*不存在的赛道/],
      [{ userTrack: ['a|b'] }, /userTrack/],
      [{ userTrack: [''] }, /userTrack/],
      [{ userTrack: ['字'.repeat(21)] }, /userTrack.*20/],
      [{ userTrack: Array.from({ length: 11 }, (_, i) => `自定义${i}`) }, /userTrack.*10/],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call('POST', '/topic/v3/track/save', { token: b.tokenValue, body });
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toMatch(msg);
    }
    expect((await t.call<TrackInfo>('GET', '/topic/v3/track/info', { token: b.tokenValue })).data).toMatchObject({ sysTrack: [], userTrack: [], customTrackData: [] });
  });

  it('track/save stores the selection as the profile’s pipe-joined lists, per user', async () => {
    const saved = await t.call<TrackInfo>('POST', '/topic/v3/track/save', {
      token: a.tokenValue,
      body: { sysTrack: ['教育', '科技数码', '人工智能', '教育'], userTrack: ['寒潮', '露营装备'] },
    });
    expect(saved.code).toBe(0);
    expect(saved.data).toMatchObject({ sysTrack: ['教育', '科技数码', '人工智能'], userTrack: ['寒潮', '露营装备'] });
    expect(saved.data.customTrackData.map((c) => c.name)).toEqual(['寒潮', '露营装备']);
    const me = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: a.tokenValue });
    expect(me.data).toMatchObject({ sysTrackSelected: '教育|科技数码|人工智能', userTrackSelected: '寒潮|露营装备' });
    // Replacing the selection removes user tracks no longer named.
    const again = await t.call<TrackInfo>('POST', '/topic/v3/track/save', { token: a.tokenValue, body: { sysTrack: ['教育', '科技数码'], userTrack: ['寒潮'] } });
    expect(again.data.customTrackData.map((c) => c.name)).toEqual(['寒潮']);
    // Another user sees none of it.
    expect((await t.call<TrackInfo>('GET', '/topic/v3/track/info', { token: b.tokenValue })).data).toMatchObject({ sysTrack: [], userTrack: [], customTrackData: [] });
    expect((await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: b.tokenValue })).data).toMatchObject({ sysTrackSelected: '', userTrackSelected: '' });
  });

  it('refresh fetches every source, merges the same story across sources, ranks and classifies', async () => {
    const summary = await t.container.topic.service.refreshOnce();
    expect(summary.fetched.sort()).toEqual(['baidu', `feed:${s.url}/feed.xml`, 'snapshot', 'weibo', 'zhihu'].sort());
    expect(summary.failed).toEqual([]);
    expect(summary.deduped).toBeGreaterThanOrEqual(1);

    const page = await hot(a.tokenValue, { pageSize: 100 });
    expect(page.code).toBe(0);
    // Live data exists: the bundled snapshot stays out of the lists.
    expect(page.data.snapshotDate).toBeNull();
    expect(page.data.records.every((r) => !r.snapshot)).toBe(true);
    expect(page.data.sources.map((x) => [x.source, x.ok])).toContainEqual(['weibo', true]);

    // Weibo's "今冬首场寒潮来袭" and Zhihu's "如何看待今冬首场寒潮？" are one story with both links; Baidu's "寒潮预警升级" is another.
    const cold = page.data.records.find((r) => r.sources.length === 2)!;
    expect(cold.title).toBe('今冬首场寒潮来袭');
    expect(cold.sources.map((x) => x.source).sort()).toEqual(['weibo', 'zhihu']);
    expect(cold.sources.find((x) => x.source === 'zhihu')!.url).toBe('https://www.zhihu.com/question/600000000');
    expect(cold.summary).toBe('中央气象台发布寒潮预警');
    expect(cold.heat).toBe(12_340_000);
    expect(cold.trend).toBe('new');
    // Two sources and first place: first in the ranking.
    expect(page.data.records[0]!.id).toBe(cold.id);
    expect(page.data.records.filter((r) => r.title.includes('寒潮'))).toHaveLength(2);
    // No promoted weibo row.
    expect(page.data.records.some((r) => r.title.includes('限时抢购'))).toBe(false);

    // jieba keyword rules per track.
    expect((await byTitle('国产大模型发布新版本')).tracks).toEqual(expect.arrayContaining(['科技数码', '人工智能']));
    expect((await byTitle('考研报名人数公布')).tracks).toEqual(expect.arrayContaining(['教育', '升学考试']));
    expect((await byTitle('冬天在家吃火锅，底料怎么选？')).tracks).toContain('美食');
    expect((await byTitle('手机影像评测：三款旗舰对比')).sources[0]).toMatchObject({ sourceName: '示例科技资讯', heat: 0 });
  });

  it('hot lists filter by system track, user track and keyword', async () => {
    const edu = await hot(a.tokenValue, { track: '教育' });
    expect(edu.data.records.map((r) => r.title)).toEqual(['考研报名人数公布']);
    const ai = await hot(a.tokenValue, { track: '人工智能' });
    expect(ai.data.records.map((r) => r.title)).toEqual(['国产大模型发布新版本']);
    // A user track is matched by its words.
    const cold = await hot(a.tokenValue, { track: '寒潮' });
    expect(cold.data.records.map((r) => r.title).sort()).toEqual(['今冬首场寒潮来袭', '寒潮预警升级'].sort());
    const zhihuOnly = await hot(a.tokenValue, { source: 'zhihu', pageSize: 100 });
    expect(zhihuOnly.data.records.length).toBe(2);
    expect(zhihuOnly.data.records.every((r) => r.sources.some((x) => x.source === 'zhihu'))).toBe(true);
    expect((await hot(a.tokenValue, { source: 'zhihu', track: '美食' })).data.records.map((r) => r.title)).toEqual(['冬天在家吃火锅，底料怎么选？']);
    const kw = await hot(a.tokenValue, { keyword: '快递' });
    expect(kw.data.records.map((r) => r.title)).toEqual(['双11快递量创新高']);
    // LIKE wildcards typed by the user are literal.
    expect((await hot(a.tokenValue, { keyword: '%' })).data.total).toBe(0);
    const bad = await hot(a.tokenValue, { pageSize: 500 });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('pageSize');
  });

  it('track/search finds system tracks, the user’s own tracks (not others’) and topics', async () => {
    await t.call('POST', '/topic/v3/track/save', { token: b.tokenValue, body: { sysTrack: [], userTrack: ['寒潮穿搭'] } });
    const res = await t.call<TrackSearchResult>('GET', '/topic/v3/track/search', { token: a.tokenValue, query: { keyword: '寒潮' } });
    expect(res.code).toBe(0);
    expect(res.data.tracks).toEqual([expect.objectContaining({ name: '寒潮', system: false })]);
    expect(res.data.topics.map((x) => x.title)).toContain('今冬首场寒潮来袭');
    const sys = await t.call<TrackSearchResult>('GET', '/topic/v3/track/search', { token: a.tokenValue, query: { keyword: '人工智能' } });
    expect(sys.data.tracks).toContainEqual(expect.objectContaining({ name: '人工智能', parent: '科技数码', system: true }));
    // A keyword of a track (not its name) finds it too.
    expect((await t.call<TrackSearchResult>('GET', '/topic/v3/track/search', { token: a.tokenValue, query: { keyword: '火锅' } })).data.tracks.map((x) => x.name)).toContain(
      '美食',
    );
    const empty = await t.call('GET', '/topic/v3/track/search', { token: a.tokenValue, query: { keyword: ' ' } });
    expect(empty.code).toBe(ErrorCode.VALIDATION);
    expect(empty.msg).toContain('keyword');
  });

  it('respects each source’s interval, records failures, and moves the trend arrows', async () => {
    const again = await t.container.topic.service.refreshOnce();
    expect(again.fetched).toEqual([]);
    expect(again.skipped).toContain('weibo');

    t.clock.advance(11 * 60_000);
    s.weibo = [
      { title: '国产大模型发布新版本', heat: 3_000_000 },
      { title: '今冬首场寒潮来袭', heat: 2_000_000 },
    ];
    s.failNext('/api/board', 503);
    const third = await t.container.topic.service.refreshOnce();
    expect(third.fetched).toEqual(expect.arrayContaining(['weibo', 'zhihu']));
    expect(third.failed).toEqual([{ source: 'baidu', error: expect.stringContaining('HTTP 503') }]);
    const [state] = await t.container.db.select().from(topicSources).where(eq(topicSources.source, 'baidu'));
    expect(state).toMatchObject({ ok: false });

    expect((await byTitle('国产大模型发布新版本')).trend).toBe('up');
    // Dropped by weibo this time: cooling.
    expect((await byTitle('考研报名人数公布')).trend).toBe('down');
    const page = await hot(a.tokenValue);
    expect(page.data.sources.find((x) => x.source === 'baidu')).toMatchObject({ ok: false, error: expect.stringContaining('503') });
  });

  it('collect, uncollect and my collection are per user', async () => {
    const item = await byTitle('今冬首场寒潮来袭');
    const other = await byTitle('双11快递量创新高');
    expect((await t.call('POST', '/topic/v3/collect', { token: a.tokenValue, body: { topicId: item.id } })).code).toBe(0);
    expect((await t.call('POST', '/topic/v3/collect', { token: a.tokenValue, body: { topicId: item.id } })).code).toBe(0);
    expect((await t.call('POST', '/topic/v3/collect', { token: a.tokenValue, body: { topicId: other.id } })).code).toBe(0);
    const mine = await t.call<TopicCollectPage>('GET', '/topic/v3/collect/list', { token: a.tokenValue });
    expect(mine.data.total).toBe(2);
    expect(mine.data.records.map((r) => r.id).sort()).toEqual([item.id, other.id].sort());
    expect((await byTitle('今冬首场寒潮来袭')).collected).toBe(true);
    // B sees neither the collection nor the mark.
    expect((await t.call<TopicCollectPage>('GET', '/topic/v3/collect/list', { token: b.tokenValue })).data.total).toBe(0);
    expect((await hot(b.tokenValue, { pageSize: 100 })).data.records.find((r) => r.id === item.id)!.collected).toBe(false);
    // B uncollecting changes nothing of A's.
    await t.call('POST', '/topic/v3/collect/cancel', { token: b.tokenValue, body: { topicId: item.id } });
    expect((await t.call<TopicCollectPage>('GET', '/topic/v3/collect/list', { token: a.tokenValue })).data.total).toBe(2);
    expect((await t.call('POST', '/topic/v3/collect/cancel', { token: a.tokenValue, body: { topicId: item.id } })).code).toBe(0);
    const after = await t.call<TopicCollectPage>('GET', '/topic/v3/collect/list', { token: a.tokenValue });
    expect(after.data.records.map((r) => r.id)).toEqual([other.id]);
    const detail = await t.call<TopicItem>('GET', '/topic/v3/detail', { token: a.tokenValue, query: { topicId: other.id } });
    expect(detail.data).toMatchObject({ id: other.id, collected: true });

    const missing = await t.call('POST', '/topic/v3/collect', { token: a.tokenValue, body: { topicId: 99_999_999 } });
    expect(missing.code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t.call('POST', '/topic/v3/collect', { token: a.tokenValue, body: { topicId: 'abc' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('topicId');
  });

  it('angles from the offline writer: template angles, free, labelled not AI', async () => {
    const item = await byTitle('考研报名人数公布');
    const before = await t.container.services.points.balance(a.user.id);
    const res = await t.call<TopicAngles>('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { topicId: item.id, platform: 'zhihu', count: 7 } });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ subject: '考研报名人数公布', platform: 'zhihu', isAi: false, pointsCharged: 0 });
    expect(res.data.angles).toHaveLength(7);
    expect(res.data.angles.every((x) => x.title.includes('考研报名人数公布') && x.hook)).toBe(true);
    expect(await t.container.services.points.balance(a.user.id)).toEqual(before);
    const kw = await t.call<TopicAngles>('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { keyword: '冬季露营' } });
    expect(kw.data).toMatchObject({ subject: '冬季露营', platform: 'xiaohongshu', isAi: false });
    expect(kw.data.angles).toHaveLength(6);

    const cases: Array<[unknown, RegExp]> = [
      [{}, /topicId.*keyword|keyword/],
      [{ keyword: '露营', count: 11 }, /count/],
      [{ keyword: '露营', count: 4 }, /count/],
      [{ keyword: '露营', platform: 'myspace' }, /platform/],
      [{ keyword: '字'.repeat(51) }, /keyword/],
    ];
    for (const [body, msg] of cases) {
      const r = await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body });
      expect(r.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
      expect(r.msg).toMatch(msg);
    }
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { topicId: 99_999_999 } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('angles from a model: charged once per requestId, refunded once when the model fails', async () => {
    const cost = await t.container.services.points.costOf('topic_angles');
    expect(cost).toBeGreaterThan(0);
    // Without points: refused before the model is asked.
    const asked = llm.received.length;
    const poor = await t.call('POST', '/topic/v3/suggest', { token: b.tokenValue, body: { keyword: '寒潮', modelConfigType: 'standin' } });
    expect(poor.code).toBe(ErrorCode.POINTS_INSUFFICIENT);
    expect(llm.received.length).toBe(asked);

    await t.container.services.points.grant(a.user.id, 100, { reason: 'test', idempotencyKey: `test:angles:${a.user.id}` });
    const start = (await t.container.services.points.balance(a.user.id)).score;
    const body = { keyword: '寒潮', platform: 'wechat_mp', modelConfigType: 'standin', requestId: 'req-angles-0001' };
    const res = await t.call<TopicAngles>('POST', '/topic/v3/suggest', { token: a.tokenValue, body });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ isAi: true, pointsCharged: cost, platform: 'wechat_mp' });
    expect(res.data.angles[0]).toEqual({ angle: '角度1', title: '模型标题1', hook: '模型开头1' });
    expect(
      llm.received
        .at(-1)!
        .messages.map((m) => m.content)
        .join('\n'),
    ).toContain('公众号');
    // A retry of the same request is not charged again.
    const retry = await t.call<TopicAngles>('POST', '/topic/v3/suggest', { token: a.tokenValue, body });
    expect(retry.data.pointsCharged).toBe(0);
    expect((await t.container.services.points.balance(a.user.id)).score).toBe(start - cost);

    // The model fails: the charge comes back once, and the spent requestId cannot be replayed for free.
    llm.script.push({ kind: 'http-error', status: 400, error: { message: 'bad request', type: 'invalid_request_error' } });
    const failBody = { ...body, requestId: 'req-angles-0002' };
    const failed = await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: failBody });
    expect(failed.code).not.toBe(0);
    expect(failed.code).not.toBe(ErrorCode.SERVER_ERROR);
    expect((await t.container.services.points.balance(a.user.id)).score).toBe(start - cost);
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: failBody })).code).toBe(ErrorCode.CONFLICT);
    // A reply with no usable angles is a failure too, refunded.
    llm.script.push({ kind: 'reply', reply: { content: '抱歉，我无法回答。' } });
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { ...body, requestId: 'req-angles-0003' } })).code).toBe(ErrorCode.AI_UPSTREAM_FAILED);
    expect((await t.container.services.points.balance(a.user.id)).score).toBe(start - cost);
  });

  it('933: a sensitive subject is refused before any charge; a model answer with a lexicon word is refused and refunded exactly once (angles and map node expansion)', async () => {
    // A user of its own: /topic/v3/suggest allows 20 calls a minute per session, and the tests above used a's.
    const a = await loginByPhone(t);
    const points = t.container.services.points;
    const cost = await points.costOf('topic_angles');
    await points.grant(a.user.id, 100, { reason: 'test', idempotencyKey: `test:angles-933:${a.user.id}` });
    // A sensitive keyword (a node the user typed on the map): 933 with the spec's message, nothing charged, model not asked.
    const asked = llm.received.length;
    const before = (await points.balance(a.user.id)).score;
    const typed = await t.call('POST', '/topic/v3/suggest', {
      token: a.tokenValue,
      body: { keyword: '网络赌博怎么赚钱', modelConfigType: 'standin', requestId: 'req-933-input-01' },
    });
    expect(typed).toMatchObject({ code: ErrorCode.SENSITIVE_CONTENT, msg: '描述词存在敏感内容' });
    expect(llm.received.length).toBe(asked);
    expect((await points.balance(a.user.id)).score).toBe(before);
    // The offline writer refuses it too: the check does not depend on the model.
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { keyword: '网络赌博怎么赚钱' } })).code).toBe(ErrorCode.SENSITIVE_CONTENT);

    // The model answers with a lexicon word in one hook: the whole answer is refused, the charge refunded once.
    const dirty = JSON.parse(angleJson(6)) as Array<{ angle: string; title: string; hook: string }>;
    dirty[3]!.hook = '有人靠线上赌场翻身？';
    for (const [i, body] of [
      // The topic drawer's angles...
      { keyword: '寒潮', modelConfigType: 'standin', requestId: 'req-933-model-01' },
      // ...and the divergent map's AI 扩展 of a node (the same call with the node's text and count 6).
      { keyword: '冬季露营', count: 6, modelConfigType: 'standin', requestId: 'req-933-node-01' },
    ].entries()) {
      llm.script.push({ kind: 'reply', reply: { content: JSON.stringify(dirty) } });
      const res = await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body });
      expect(res, `case ${i}`).toMatchObject({ code: ErrorCode.SENSITIVE_CONTENT, msg: '生成内容存在敏感内容，已退还积分' });
      expect((await points.balance(a.user.id)).score).toBe(before);
      const key = `angles:${a.user.id}:${body.requestId}`;
      const rows = await t.container.db.select().from(pointsLedger).where(eq(pointsLedger.userId, a.user.id));
      expect(rows.filter((r) => r.idempotencyKey === key).map((r) => r.delta)).toEqual([-cost]);
      expect(rows.filter((r) => r.idempotencyKey === `refund:${key}`).map((r) => r.delta)).toEqual([cost]);
      // The same request again is not a second refund (nor a free retry).
      expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body })).code).toBe(ErrorCode.CONFLICT);
      expect((await points.balance(a.user.id)).score).toBe(before);
    }

    // A word the operator adds (lexicon:add) applies to angles at once: the lexicon (modules/lexicon) is shared with writing.
    await commands['lexicon:add']!.run(t.container, { word: '露营黑话' });
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { keyword: '露营黑话大全' } })).code).toBe(ErrorCode.SENSITIVE_CONTENT);
    await commands['lexicon:remove']!.run(t.container, { word: '露营黑话' });
  });

  it('angles use the persona when one is set (its voice in the prompt); another user’s persona is not found', async () => {
    const a = await loginByPhone(t);
    const saved = await t.call<Persona>('POST', '/persona/save', {
      token: a.tokenValue,
      body: { name: '露营老炮', platform: '小红书', industry: '户外', audience: '新手露营爱好者', tone: '幽默', tabooWords: ['最便宜'], sampleTexts: [] },
    });
    expect(saved.code).toBe(0);
    await t.container.services.points.grant(a.user.id, 100, { reason: 'test', idempotencyKey: `test:angles-persona:${a.user.id}` });
    const res = await t.call<TopicAngles>('POST', '/topic/v3/suggest', {
      token: a.tokenValue,
      body: { keyword: '冬季露营', modelConfigType: 'standin', personaId: saved.data.id, requestId: 'req-persona-0001' },
    });
    expect(res.code).toBe(0);
    const prompt = llm.received
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    for (const part of ['人设：露营老炮', '目标读者：新手露营爱好者', '语气：幽默', '禁止出现的词：最便宜', '符合上面的人设']) expect(prompt).toContain(part);
    // Without one, no persona lines.
    await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { keyword: '冬季露营', modelConfigType: 'standin', requestId: 'req-persona-0002' } });
    expect(
      llm.received
        .at(-1)!
        .messages.map((m) => m.content)
        .join('\n'),
    ).not.toContain('人设：');
    const other = await t.call('POST', '/topic/v3/suggest', { token: b.tokenValue, body: { keyword: '冬季露营', personaId: saved.data.id } });
    expect(other).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: '人设不存在' });
    expect((await t.call('POST', '/topic/v3/suggest', { token: a.tokenValue, body: { keyword: '冬季露营', personaId: 'x' } })).code).toBe(ErrorCode.VALIDATION);
  });

  it('divergent maps: save, update, list, reopen and delete, per user', async () => {
    const data = { root: { data: { text: '寒潮' }, children: [{ data: { text: '角度：防寒清单' }, children: [] }] } };
    const saved = await t.call<MapItem>('POST', '/topic/v3/map/save', { token: a.tokenValue, body: { title: '寒潮选题', data } });
    expect(saved.code).toBe(0);
    const id = saved.data.id;
    const upd = await t.call<MapItem>('POST', '/topic/v3/map/save', { token: a.tokenValue, body: { id, title: '寒潮选题 v2', data: { ...data, theme: 'fresh' } } });
    expect(upd.data).toMatchObject({ id, title: '寒潮选题 v2' });
    const list = await t.call<Array<{ id: number; title: string }>>('GET', '/topic/v3/map/list', { token: a.tokenValue });
    expect(list.data.map((m) => m.title)).toEqual(['寒潮选题 v2']);
    const open = await t.call<MapItem>('GET', '/topic/v3/map/detail', { token: a.tokenValue, query: { id } });
    expect(open.data.data).toEqual({ ...data, theme: 'fresh' });
    // Another user can neither read, overwrite nor delete it.
    expect((await t.call('GET', '/topic/v3/map/detail', { token: b.tokenValue, query: { id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/topic/v3/map/save', { token: b.tokenValue, body: { id, title: 'x', data: {} } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/topic/v3/map/delete', { token: b.tokenValue, body: { id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call<unknown[]>('GET', '/topic/v3/map/list', { token: b.tokenValue })).data).toEqual([]);
    for (const [body, msg] of [
      [{ data }, /title/],
      [{ title: '无内容' }, /data/],
      [{ title: 'x', data: { big: 'x'.repeat(210_000) } }, /data.*过大/],
    ] as const) {
      const r = await t.call('POST', '/topic/v3/map/save', { token: a.tokenValue, body });
      expect(r.code).toBe(ErrorCode.VALIDATION);
      expect(r.msg).toMatch(msg);
    }
    expect((await t.call('POST', '/topic/v3/map/delete', { token: a.tokenValue, body: { id } })).code).toBe(0);
    expect((await t.call('GET', '/topic/v3/map/detail', { token: a.tokenValue, query: { id } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('the admin CLI edits system tracks; the next refresh classifies by the new keywords', async () => {
    await expect(commands['topic:track']!.run(t.container, { name: '宠物', keywords: '' })).rejects.toThrow(/keywords/);
    await expect(commands['topic:track']!.run(t.container, { name: '猫咪', keywords: '猫', parent: '不存在' })).rejects.toThrow(/不存在/);
    expect(await commands['topic:track']!.run(t.container, { name: '宠物', keywords: '猫咪,狗狗，宠物' })).toMatchObject({ created: true });
    expect(await commands['topic:track']!.run(t.container, { name: '猫咪', keywords: '猫咪,猫粮', parent: '宠物' })).toMatchObject({ created: true });
    expect(await commands['topic:track']!.run(t.container, { name: '宠物', keywords: '猫咪,狗狗,宠物,铲屎官' })).toMatchObject({ created: false });
    const listed = (await commands['topic:tracks']!.run(t.container, {})) as Array<{ name: string; parent: string | null; keywords: string }>;
    expect(listed).toContainEqual(expect.objectContaining({ name: '猫咪', parent: '宠物', keywords: '猫咪、猫粮' }));
    expect((await t.call<TrackInfo>('GET', '/topic/v3/track/info', { token: a.tokenValue })).data.trackData.find((x) => x.name === '宠物')!.children.map((c) => c.name)).toEqual([
      '猫咪',
    ]);

    s.baidu = [{ title: '猫咪冬天怕冷吗？铲屎官必看', heat: 900_000 }];
    const summary = (await commands['topic:refresh']!.run(t.container, {})) as { fetched: string[] };
    // Forced: every source, whatever its interval.
    expect(summary.fetched).toContain('baidu');
    expect(summary.fetched).toContain('snapshot');
    expect((await byTitle('猫咪冬天怕冷吗？铲屎官必看')).tracks).toEqual(expect.arrayContaining(['宠物', '猫咪']));
  });

  it('the refresh job runs on the queue', async () => {
    t.clock.advance(11 * 60_000);
    s.zhihu = [{ title: '队列刷新带来的新问题', heat: 1_000_000 }];
    await t.container.jobs.enqueue(REFRESH_JOB, {}, { jobId: 'test-run' });
    const deadline = Date.now() + 20_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      found = (await t.container.db.select().from(topicItems).where(eq(topicItems.title, '队列刷新带来的新问题'))).length > 0;
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toBe(true);
  });
});

describeOnDatabases('topics with only the embedded snapshot on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the first read fills the page from the dated snapshot, labelled as such', async () => {
    const u = await loginByPhone(t);
    expect(t.container.sandboxes.join(' ')).toContain(`bundled snapshot dated ${SNAPSHOT_DATE}`);
    const res = await t.call<TopicHotPage>('GET', '/topic/v3/hot', { token: u.tokenValue, query: { pageSize: 50 } });
    expect(res.code).toBe(0);
    expect(res.data.snapshotDate).toBe(SNAPSHOT_DATE);
    expect(res.data.total).toBeGreaterThanOrEqual(30);
    expect(res.data.records.every((r) => r.snapshot && r.sources[0]!.sourceName.includes(SNAPSHOT_DATE))).toBe(true);
    expect(res.data.sources).toEqual([expect.objectContaining({ source: 'snapshot', ok: true })]);
    // Classified like live items.
    const food = await t.call<TopicHotPage>('GET', '/topic/v3/hot', { token: u.tokenValue, query: { track: '美食' } });
    expect(food.data.records.length).toBeGreaterThan(0);
    expect(food.data.records.every((r) => r.tracks.includes('美食'))).toBe(true);
  });
});

describeOnDatabases('model classification when a model is the default, on %s', (dbKind) => {
  let t: TestApp;
  let s: TrendsStandin;
  let llm: OpenAiStandin;
  beforeAll(async () => {
    s = await startTrendsStandin();
    llm = await startOpenAiStandin({ model: 'standin-chat' });
    t = await startTestApp({
      db: dbKind,
      env: {
        TRENDS_SOURCES: `weibo=${s.url}`,
        SAFE_FETCH_ALLOW_HOSTS: s.host,
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: llm.baseURL, apiKey: llm.apiKey, model: 'standin-chat' }]),
        LLM_RETRY_BASE_MS: '1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await s?.close();
    await llm?.close();
  });

  it('titles no keyword rule placed go to the model once; only system track names are taken', async () => {
    s.weibo = [
      { title: '考研报名人数公布', heat: 2_000_000 },
      { title: '神秘天象引发围观', heat: 1_000_000 },
      { title: '城市夜景灯光秀上新', heat: 900_000 },
    ];
    llm.respond = () => ({ content: '```json\n{"1":["旅行","不存在的赛道"],"2":[]}\n```' });
    const summary = await t.container.topic.service.refreshOnce();
    expect(summary.fetched).toEqual(['weibo']);
    const asked = llm.received.filter((r) => r.messages.some((m) => m.content.includes('可选赛道')));
    expect(asked).toHaveLength(1);
    const prompt = asked[0]!.messages.at(-1)!.content;
    // The keyword-classified title is not sent.
    expect(prompt).not.toContain('考研');
    expect(prompt).toContain('1. 神秘天象引发围观');
    const rows = await t.container.db.select().from(topicItems);
    const tracksOf = (title: string) => rows.find((r) => r.title === title)!.tracks;
    expect(tracksOf('神秘天象引发围观')).toEqual(['旅行']);
    expect(tracksOf('城市夜景灯光秀上新')).toEqual([]);
    expect(tracksOf('考研报名人数公布')).toEqual(expect.arrayContaining(['教育']));

    // A model failure leaves keyword results alone and the refresh still succeeds.
    t.clock.advance(11 * 60_000);
    s.weibo = [{ title: '一种新的天气现象', heat: 100 }];
    llm.script.push({ kind: 'http-error', status: 400, error: { message: 'bad request', type: 'invalid_request_error' } });
    const again = await t.container.topic.service.refreshOnce();
    expect(again.failed).toEqual([]);
    expect((await t.container.db.select().from(topicItems).where(eq(topicItems.title, '一种新的天气现象')))[0]!.tracks).toEqual([]);
  });
});
