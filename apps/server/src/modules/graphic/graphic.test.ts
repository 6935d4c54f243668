import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type CoverReply } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { testDbKinds } from '../../test/database.js';

describe.each(testDbKinds)('cover cards on %s', (dbKind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders a 1080x1440 PNG from the title, stores it and serves it at the returned URL', async () => {
    const res = await t.call<CoverReply>('POST', '/graphic/cover', { token, body: { title: '  春日午后的一杯咖啡  ', themeId: 'ink' } });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ width: 1080, height: 1440 });
    expect(res.data.url).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}\.png$/);
    const img = await fetch(`${t.url}${res.data.url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await img.arrayBuffer());
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 1440]);
  });

  it('keeps the cover in the image library, found by the words of its title', async () => {
    const made = await t.call<CoverReply>('POST', '/graphic/cover', { token, body: { title: '秋天的银杏大道' } });
    expect(made.code).toBe(0);
    const found = await t.call<Array<{ url: string }>>('GET', '/material/v3/image/search', { token, query: { keyword: '银杏' } });
    expect(found.code).toBe(0);
    expect(found.data.map((i) => i.url)).toContain(made.data.url);
  });

  it('refuses an empty, blank or over-long title and an unknown theme with 1001 naming the field', async () => {
    for (const body of [{}, { title: '' }, { title: '   ' }]) {
      const res = await t.call('POST', '/graphic/cover', { token, body });
      expect(res.code).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toContain('title');
    }
    const long = await t.call('POST', '/graphic/cover', { token, body: { title: '字'.repeat(41) } });
    expect(long.code).toBe(ErrorCode.VALIDATION);
    expect(long.msg).toContain('最多40个字');
    // 40 characters is the limit, not beyond it (emoji count as one).
    expect((await t.call('POST', '/graphic/cover', { token, body: { title: '😀'.repeat(40) } })).code).toBe(0);
    const theme = await t.call('POST', '/graphic/cover', { token, body: { title: '标题', themeId: 'neon' } });
    expect(theme.code).toBe(ErrorCode.VALIDATION);
    expect(theme.msg).toContain('themeId');
  });

  it('requires login', async () => {
    const res = await t.call('POST', '/graphic/cover', { body: { title: '标题' } });
    expect(res.code).toBe(401);
  });
});
