import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { recallChannelVisits } from '../../db/schema/index.js';
import { chinaDay } from './recall.service.js';

describeOnDatabases('recall activity on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  const visits = (userId: number) => t.container.db.select().from(recallChannelVisits).where(eq(recallChannelVisits.userId, userId)).orderBy(recallChannelVisits.id);
  const report = (token: string | undefined, body: unknown) => t.call('POST', '/homepage/recall/channel', { token, body });

  it('needs a session', async () => {
    const res = await report(undefined, { channel: 'sms' });
    expect(res.code).toBe(ErrorCode.NOT_LOGGED_IN);
    expect(await t.container.db.select().from(recallChannelVisits)).toHaveLength(0);
  });

  it('records the channel once per user, channel and China day', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    expect(await report(a.tokenValue, { channel: ' sms_0315 ' })).toMatchObject({ code: 0, data: null });
    expect((await report(a.tokenValue, { channel: 'sms_0315' })).code).toBe(0);
    expect((await report(a.tokenValue, { channel: 'wechat-push' })).code).toBe(0);
    expect((await report(b.tokenValue, { channel: 'sms_0315' })).code).toBe(0);
    const rows = await visits(a.user.id);
    expect(rows.map((r) => [r.channel, r.day])).toEqual([
      ['sms_0315', chinaDay(t.clock.now())],
      ['wechat-push', chinaDay(t.clock.now())],
    ]);
    expect(await visits(b.user.id)).toHaveLength(1);

    t.clock.advance(24 * 60 * 60 * 1000);
    expect((await report(a.tokenValue, { channel: 'sms_0315' })).code).toBe(0);
    expect((await visits(a.user.id)).map((r) => r.channel)).toEqual(['sms_0315', 'wechat-push', 'sms_0315']);
  });

  it('counts days in China time', () => {
    expect(chinaDay(new Date('2025-03-01T15:59:59Z'))).toBe('2025-03-01');
    expect(chinaDay(new Date('2025-03-01T16:00:00Z'))).toBe('2025-03-02');
  });

  it('rejects a bad channel naming the field and records nothing', async () => {
    const a = await loginByPhone(t);
    for (const body of [{}, { channel: '' }, { channel: '   ' }, { channel: 'x'.repeat(65) }, { channel: 'a b' }, { channel: '<script>' }, { channel: 12 }]) {
      const res = await report(a.tokenValue, body);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toContain('channel');
    }
    expect((await t.call('POST', '/homepage/recall/channel', { token: a.tokenValue })).code).toBe(ErrorCode.VALIDATION);
    expect(await visits(a.user.id)).toHaveLength(0);
    expect((await report(a.tokenValue, { channel: '回流活动.春节' })).code).toBe(0);
    expect(await visits(a.user.id)).toHaveLength(1);
  });
});
