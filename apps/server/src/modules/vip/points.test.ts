import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { pointsLedger, users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';

async function ledgerSum(t: TestApp, userId: number) {
  const [row] = await t.container.db
    .select({ sum: sql<string>`coalesce(sum(${pointsLedger.delta}), 0)`, n: sql<string>`count(*)` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return { sum: Number(row!.sum), rows: Number(row!.n) };
}

async function balanceOf(t: TestApp, userId: number) {
  const [row] = await t.container.db.select({ b: users.pointsBalance, total: users.pointsTotal }).from(users).where(eq(users.id, userId));
  return row!;
}

describeOnDatabases('points ledger on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('200 concurrent charges against a balance that affords 50: exactly 50 succeed, nothing goes negative', async () => {
    const { user } = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(user.id, 50 * 7, { reason: 'test', idempotencyKey: `seed:${user.id}` });
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => points.charge(user.id, 7, { reason: 'article_deep', idempotencyKey: `c:${user.id}:${i}` })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(50);
    expect(failed).toHaveLength(150);
    for (const f of failed) {
      expect(f.reason).toBeInstanceOf(AppError);
      expect((f.reason as AppError).code).toBe(ErrorCode.POINTS_INSUFFICIENT);
    }
    expect((await balanceOf(t, user.id)).b).toBe(0);
    expect(await ledgerSum(t, user.id)).toEqual({ sum: 0, rows: 51 });
    // Balances after each charge are all distinct: no two charges saw the same balance.
    const after = ok.map((r) => (r as PromiseFulfilledResult<{ balance: number }>).value.balance).sort((a, b) => a - b);
    expect(after).toEqual(Array.from({ length: 50 }, (_, i) => i * 7));
  });

  it('a repeated idempotency key returns the first result and changes nothing, even concurrently', async () => {
    const { user } = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(user.id, 100, { reason: 'seed', idempotencyKey: `seed:${user.id}` });
    const again = await points.grant(user.id, 100, { reason: 'seed', idempotencyKey: `seed:${user.id}` });
    expect(again).toMatchObject({ duplicate: true, balance: 100 });
    const results = await Promise.all(Array.from({ length: 30 }, () => points.charge(user.id, 30, { reason: 'graphic', idempotencyKey: `task:${user.id}:1` })));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(new Set(results.map((r) => r.ledgerId)).size).toBe(1);
    expect(await balanceOf(t, user.id)).toEqual({ b: 70, total: 100 });
    expect(await ledgerSum(t, user.id)).toEqual({ sum: 70, rows: 2 });
  });

  it('not enough points: dedicated code with {iDataEventId, balance, need}, balance untouched', async () => {
    const { user } = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(user.id, 3, { reason: 'seed', idempotencyKey: `seed:${user.id}` });
    const err = await points.charge(user.id, 20, { reason: 'article_deep', idempotencyKey: `x:${user.id}`, eventId: 'evt-123' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: ErrorCode.POINTS_INSUFFICIENT, message: '积分不足', data: { iDataEventId: 'evt-123', balance: 3, need: 20 } });
    expect((await balanceOf(t, user.id)).b).toBe(3);
    // The failed key was not consumed: a later charge with it can succeed once topped up.
    await points.grant(user.id, 17, { reason: 'top-up', idempotencyKey: `top:${user.id}` });
    expect(await points.charge(user.id, 20, { reason: 'article_deep', idempotencyKey: `x:${user.id}` })).toMatchObject({ duplicate: false, balance: 0 });
  });

  it('refunds of failed work restore points once and never more than charged', async () => {
    const { user } = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(user.id, 50, { reason: 'seed', idempotencyKey: `seed:${user.id}` });
    await points.charge(user.id, 20, { reason: 'article_deep', idempotencyKey: `task:${user.id}:9` });
    const refunds = await Promise.all(Array.from({ length: 20 }, () => points.refund(user.id, `task:${user.id}:9`, { reason: '生成失败退回', amount: 999 })));
    expect(refunds.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(refunds[0]!.delta).toBe(20);
    expect(await balanceOf(t, user.id)).toEqual({ b: 50, total: 50 });
    await expect(points.refund(user.id, `task:${user.id}:nope`, { reason: 'x' })).rejects.toThrow(/no charge/);
    const { user: other } = await loginByPhone(t);
    await expect(points.refund(other.id, `task:${user.id}:9`, { reason: 'x' })).rejects.toThrow();
  });

  it('serves balance, newest-first history and the points dictionary over HTTP', async () => {
    const { user, tokenValue } = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(user.id, 40, { reason: '充值', idempotencyKey: `h1:${user.id}` });
    await points.charge(user.id, 5, { reason: '快速写作', idempotencyKey: `h2:${user.id}` });
    const list = await t.call<{ records: Array<{ delta: number; reason: string; balanceAfter: number }>; total: number }>('GET', '/vip/score/consume/list', {
      token: tokenValue,
      query: { pageNum: 1, pageSize: 1 },
    });
    expect(list.data.total).toBe(2);
    expect(list.data.records).toEqual([expect.objectContaining({ delta: -5, reason: '快速写作', balanceAfter: 35 })]);
    // The first balance read of the day also credits the daily login reward (20).
    const score = await t.call<{ score: number; totalScore: number }>('GET', '/vip/user/score', { token: tokenValue });
    expect(score.data).toEqual({ score: 35 + 20, totalScore: 40 + 20 });
    const dict = await t.call<Array<{ feature: string; point: number }>>('GET', '/vip/score/point/consume');
    expect(dict.data).toEqual(expect.arrayContaining([{ feature: 'article_deep', name: '深度写作', point: 20 }, expect.objectContaining({ feature: 'title', point: 1 })]));
    expect((await t.call('GET', '/vip/user/score')).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });
});
