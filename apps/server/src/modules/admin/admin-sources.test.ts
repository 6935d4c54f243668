import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type AdminAuditEntry, type AdminSource, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { startSearchStandin, type SearchStandin } from '../../test/standins/web-search.js';
import { startTrendsStandin, type TrendsStandin } from '../../test/standins/trends.js';
import { startImagesStandin, type ImagesStandin } from '../../test/standins/openai-images.js';

describeOnDatabases('console sources on/off on %s', (db) => {
  let t: TestApp;
  let search: SearchStandin;
  let trends: TrendsStandin;
  let images: ImagesStandin;
  let op: TestAdmin;

  beforeAll(async () => {
    search = await startSearchStandin();
    trends = await startTrendsStandin();
    images = await startImagesStandin();
    trends.weibo = [{ title: '城市夜景灯光秀上新', heat: 900_000 }];
    t = await startTestApp({
      db,
      env: {
        SEARCH_PROVIDER: 'bocha',
        BOCHA_API_KEY: search.apiKey,
        BOCHA_API_BASE: search.url,
        TRENDS_SOURCES: `weibo=${trends.url},snapshot`,
        IMAGEGEN_PROVIDER: 'openai',
        IMAGEGEN_BASE_URL: images.baseURL,
        IMAGEGEN_API_KEY: images.apiKey,
        IMAGEGEN_MODEL: 'standin-image',
        SAFE_FETCH_ALLOW_HOSTS: `${trends.host},${new URL(images.baseURL).host}`,
      },
    });
    op = await loginAdmin(t, 'operator');
  });
  afterAll(async () => {
    await t?.close();
    await search?.close();
    await trends?.close();
    await images?.close();
  });

  const list = async (token = op.token) => (await t.call<{ records: AdminSource[] }>('GET', '/admin/sources', { token })).data.records;
  const switchTo = (kind: string, id: string, enabled: boolean, token = op.token) => t.call<AdminSource>('POST', '/admin/sources/switch', { token, body: { kind, id, enabled } });

  it('lists the configured search vendor and trends sources by name only, never their keys', async () => {
    const viewer = await loginAdmin(t, 'viewer');
    const records = await list(viewer.token);
    expect(records.filter((r) => r.kind === 'search').map((r) => [r.id, r.configured, r.enabled])).toEqual([
      ['bocha', true, true],
      ['tavily', false, false],
      ['searxng', false, false],
    ]);
    expect(records.filter((r) => r.kind === 'trends').map((r) => [r.id, r.switchable, r.enabled, r.live])).toEqual([
      ['weibo', true, true, true],
      ['snapshot', true, true, false],
    ]);
    expect(JSON.stringify(records)).not.toContain(search.apiKey);
    expect((await switchTo('search', 'bocha', false, viewer.token)).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
  });

  it('AI pictures switched off: the status says paused, AI picture tasks are refused before any picture is asked for; on again, they are offered', async () => {
    const user = await loginByPhone(t);
    const status = async () => (await t.call<{ enabled: boolean; reason: string | null }>('GET', '/graphic/imagegen/status', { token: user.tokenValue })).data;
    const row = (await list()).find((r) => r.kind === 'imagegen')!;
    expect(row).toMatchObject({ id: 'openai', name: 'AI配图（standin-image）', configured: true, switchable: true, enabled: true });
    expect(JSON.stringify(await list())).not.toContain(images.apiKey);
    expect((await status()).enabled).toBe(true);

    expect((await switchTo('imagegen', 'openai', false)).data.enabled).toBe(false);
    expect(await status()).toMatchObject({ enabled: false, reason: expect.stringContaining('AI配图已暂停') });
    const before = images.received.length;
    const refused = await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'graphic', content: '咖啡入门', pictureMode: 'ai' } });
    expect(refused.code).toBe(ErrorCode.NOT_CONFIGURED);
    expect(refused.msg).toContain('AI配图已暂停');
    expect(images.received.length).toBe(before);
    const audit = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action: 'source.switch', pageNum: 1, pageSize: 5 } });
    expect(audit.data.records[0]).toMatchObject({ targetType: 'imagegen_source', targetId: 'openai', before: { enabled: true }, after: { enabled: false } });

    expect((await switchTo('imagegen', 'openai', true)).data.enabled).toBe(true);
    expect(await status()).toMatchObject({ enabled: true, reason: null });
    expect((await switchTo('imagegen', 'dalle', false)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('online search switched off: writers are told at once and tasks asking for it are refused; on again, it works', async () => {
    const user = await loginByPhone(t);
    const status = async () => (await t.call<{ enabled: boolean; reason: string | null }>('GET', '/writing/search/status', { token: user.tokenValue })).data;
    expect((await status()).enabled).toBe(true);

    const off = await switchTo('search', 'bocha', false);
    expect(off.code, off.msg).toBe(0);
    expect(off.data).toMatchObject({ id: 'bocha', enabled: false });
    expect(await status()).toMatchObject({ enabled: false, reason: '联网搜索已暂停' });
    const refused = await t.call('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', content: '写一篇骑行文章', onlineSearch: true, modelConfigType: 'offline' },
    });
    expect(refused.code).toBe(ErrorCode.SEARCH_NOT_CONFIGURED);
    expect(refused.msg).toContain('联网搜索已暂停');
    expect((await list()).find((r) => r.id === 'bocha')!.enabled).toBe(false);

    expect((await switchTo('search', 'bocha', true)).code).toBe(0);
    expect(await status()).toMatchObject({ enabled: true, reason: null });

    const audit = (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action: 'source.switch', targetId: 'bocha' } })).data.records;
    expect(audit.map((e) => [e.before, e.after])).toEqual([
      [{ enabled: false }, { enabled: true }],
      [{ enabled: true }, { enabled: false }],
    ]);
    expect(JSON.stringify(audit)).not.toContain(search.apiKey);
  });

  it('a trends source switched off is not fetched by the refresh; on again, it is', async () => {
    expect((await switchTo('trends', 'weibo', false)).code).toBe(0);
    const before = trends.received.length;
    const offRun = await t.container.topic.service.refreshOnce(true);
    expect(offRun.fetched).not.toContain('weibo');
    expect(offRun.fetched).toContain('snapshot');
    expect(trends.received.length).toBe(before);

    expect((await switchTo('trends', 'weibo', true)).code).toBe(0);
    const onRun = await t.container.topic.service.refreshOnce(true);
    expect(onRun.fetched).toContain('weibo');
    expect(trends.received.length).toBeGreaterThan(before);
  });

  it('only configured sources can be switched', async () => {
    expect((await switchTo('search', 'tavily', false)).code).toBe(ErrorCode.NOT_FOUND);
    expect((await switchTo('trends', 'zhihu', false)).code).toBe(ErrorCode.NOT_FOUND);
    expect((await switchTo('nope', 'weibo', false)).code).toBe(ErrorCode.VALIDATION);
  });
});
