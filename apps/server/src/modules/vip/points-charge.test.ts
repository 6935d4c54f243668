import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { pointsLedger, users } from '../../db/schema/index.js';

/** The one-statement charge (debit + ledger row) keeps every rule of the transactional one. */
describeOnDatabases('one-statement points charge on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });
  const balance = async (id: number) => (await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, id)))[0]!.b;
  const rows = async (key: string) => (await t.container.db.select().from(pointsLedger).where(eq(pointsLedger.idempotencyKey, key))).length;

  it('writes the ledger row with the balance after, and a retry of a used key answers duplicate even once the balance is short', async () => {
    const a = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(a.user.id, 10, { reason: 'test', idempotencyKey: `g:${a.user.id}` });
    const first = await points.charge(a.user.id, 7, { reason: 'test', idempotencyKey: `c:${a.user.id}` });
    expect(first).toMatchObject({ delta: -7, balance: 3, duplicate: false });
    expect(typeof first.ledgerId).toBe('number');
    // 3 left: the same key again is the first charge, not "insufficient", and nothing moves.
    expect(await points.charge(a.user.id, 7, { reason: 'test', idempotencyKey: `c:${a.user.id}` })).toMatchObject({ ledgerId: first.ledgerId, balance: 3, duplicate: true });
    await expect(points.charge(a.user.id, 7, { reason: 'test', idempotencyKey: `c2:${a.user.id}` })).rejects.toMatchObject({ code: ErrorCode.POINTS_INSUFFICIENT });
    expect(await balance(a.user.id)).toBe(3);
    expect(await rows(`c2:${a.user.id}`)).toBe(0);
  });

  it("inside a caller's transaction the charge rolls back with it", async () => {
    const a = await loginByPhone(t);
    const points = t.container.services.points;
    await points.grant(a.user.id, 10, { reason: 'test', idempotencyKey: `g:${a.user.id}` });
    await expect(
      t.container.db.transaction(async (tx) => {
        await points.charge(a.user.id, 4, { reason: 'test', idempotencyKey: `tx:${a.user.id}` }, tx);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await balance(a.user.id)).toBe(10);
    expect(await rows(`tx:${a.user.id}`)).toBe(0);
  });
});
