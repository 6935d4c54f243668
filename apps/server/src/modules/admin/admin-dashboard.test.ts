import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode, type AdminAuditEntry, type AdminDashboard, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin } from '../../test/admin-helpers.js';

describeOnDatabases('console dashboard on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  const tag = () => randomBytes(6).toString('hex');
  /** A user registered at `at` (China time), written directly: the figures are read for days no other test touches. */
  async function userAt(at: string): Promise<number> {
    const k = tag();
    const r = await t.container.db.execute(
      sql`insert into users (uid, username, nickname, invite_code, created_at) values (${`u${k}`}, ${`u${k}`}, ${'看板'}, ${`i${k}`}, ${at}::timestamptz) returning id`,
    );
    return Number((r as unknown as { rows: Array<{ id: number }> }).rows[0]!.id);
  }
  const exec = (q: ReturnType<typeof sql>) => t.container.db.execute(q);
  async function order(userId: number, fen: number, paidAt: string) {
    const no = `D${tag()}`;
    await exec(sql`insert into pay_orders (order_no, user_id, kind, item_id, item, amount_fen, gateway, channel, status, expire_at, created_at, paid_at)
      values (${no}, ${userId}, 'vip', 'm', ${JSON.stringify({ name: '月卡', points: 0, durationDays: 30 })}::jsonb, ${fen}, 'sandbox', 'wechat', 'paid', ${paidAt}::timestamptz, ${paidAt}::timestamptz, ${paidAt}::timestamptz)`);
    return no;
  }

  it('reports exact figures per China day from seeded data: signups, DAU, paying users, revenue net of refunds, tasks, publish success', async () => {
    // Three days in 2031 (China time). Day 1: two signups; day 2: one. A user registered late on day 1 China time
    // (16:30 UTC is 00:30 the next China day) counts on day 2.
    const a = await userAt('2031-03-01T09:00:00+08:00');
    const b = await userAt('2031-03-01T23:30:00+08:00');
    const c = await userAt('2031-03-01T16:30:00Z');
    // DAU: a logs in on day 1 and is seen again on day 3; b sends a client event on day 2; c logs in on day 2 twice.
    await exec(sql`insert into sessions (user_id, token_hash, created_at, last_seen_at, expires_at) values
      (${a}, ${tag()}, '2031-03-01T10:00:00+08:00', '2031-03-03T10:00:00+08:00', '2031-04-01T00:00:00Z'),
      (${c}, ${tag()}, '2031-03-02T10:00:00+08:00', '2031-03-02T11:00:00+08:00', '2031-04-01T00:00:00Z'),
      (${c}, ${tag()}, '2031-03-02T12:00:00+08:00', '2031-03-02T12:00:00+08:00', '2031-04-01T00:00:00Z')`);
    await exec(sql`insert into user_events (user_id, event, created_at) values (${b}, 'pv', '2031-03-02T08:00:00+08:00')`);
    // Money: day 1 a pays 3000 and 1500; day 2 b pays 2000; day 3 a's 3000 order is refunded 1000 (partial).
    const big = await order(a, 3000, '2031-03-01T11:00:00+08:00');
    await order(a, 1500, '2031-03-01T12:00:00+08:00');
    await order(b, 2000, '2031-03-02T12:00:00+08:00');
    await exec(sql`insert into pay_refunds (refund_no, order_no, user_id, request_id, amount_fen, reason, status, gateway, created_at, succeeded_at)
      values (${`R${tag()}`}, ${big}, ${a}, ${tag()}, 1000, '测试', 'succeeded', 'sandbox', '2031-03-03T09:00:00+08:00', '2031-03-03T09:00:00+08:00'),
             (${`R${tag()}`}, ${big}, ${a}, ${tag()}, 500, '测试', 'failed', 'sandbox', '2031-03-03T09:00:00+08:00', null)`);
    // Tasks by status, and publish jobs finished in the range (2 succeeded, 1 failed; a running one does not count).
    for (const [status, n] of [
      ['succeeded', 3],
      ['failed', 1],
    ] as const)
      for (let i = 0; i < n; i++)
        await exec(sql`insert into writing_tasks (id, user_id, kind, mode, input, model_id, status, points_feature, created_at)
          values (${`w${tag()}`}, ${a}, 'article', 'quick', '{}'::jsonb, 'm', ${status}, 'f', '2031-03-02T10:00:00+08:00')`);
    const acct = await exec(sql`insert into platform_accounts (user_id, platform, platform_user_id, account_name) values (${a}, 'xiaohongshu', ${tag()}, '号') returning id`);
    const accountId = Number((acct as unknown as { rows: Array<{ id: number }> }).rows[0]!.id);
    const pub = `p${tag()}`;
    await exec(sql`insert into publish_tasks (id, user_id, content) values (${pub}, ${a}, ${JSON.stringify({ title: 't', body: 'b', images: [], topics: [] })}::jsonb)`);
    for (const [status, finished] of [
      ['succeeded', '2031-03-02T10:00:00+08:00'],
      ['succeeded', '2031-03-03T10:00:00+08:00'],
      ['failed', '2031-03-03T11:00:00+08:00'],
      ['running', null],
      ['succeeded', '2031-03-04T10:00:00+08:00'],
    ] as const)
      await exec(
        sql`insert into publish_jobs (id, publish_id, user_id, account_id, platform, status, finished_at) values (${`j${tag()}`}, ${pub}, ${a}, ${accountId}, 'xiaohongshu', ${status}, ${finished}::timestamptz)`,
      );

    const viewer = await loginAdmin(t, 'viewer');
    const res = await t.call<AdminDashboard>('GET', '/admin/dashboard', { token: viewer.token, query: { from: '2031-03-01', to: '2031-03-03' } });
    expect(res.code, res.msg).toBe(0);
    expect(res.data.days).toEqual([
      { day: '2031-03-01', signups: 2, dau: 1, payingUsers: 1, revenueFen: 4500, refundFen: 0 },
      { day: '2031-03-02', signups: 1, dau: 2, payingUsers: 1, revenueFen: 2000, refundFen: 0 },
      { day: '2031-03-03', signups: 0, dau: 1, payingUsers: 0, revenueFen: -1000, refundFen: 1000 },
    ]);
    expect(res.data.totals).toEqual({ signups: 3, payingUsers: 2, revenueFen: 5500, refundFen: 1000, publishSucceeded: 2, publishFailed: 1, publishSuccessRate: 2 / 3 });
    expect(res.data.tasks).toEqual([
      { status: 'failed', count: 1 },
      { status: 'succeeded', count: 3 },
    ]);
    expect(res.data.queue.kind).toBe('in-process');

    const bad = await t.call('GET', '/admin/dashboard', { token: viewer.token, query: { from: '2031-03-05', to: '2031-03-01' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('from');
    expect((await t.call('GET', '/admin/dashboard', { token: viewer.token, query: { from: '2020-01-01', to: '2031-03-01' } })).code).toBe(ErrorCode.VALIDATION);
    const malformed = await t.call('GET', '/admin/dashboard', { token: viewer.token, query: { from: '3月1日' } });
    expect(malformed.code).toBe(ErrorCode.VALIDATION);
    expect(malformed.msg).toContain('from');
  });

  it('shows a failed job on the dashboard; an operator retries it once (audited), a viewer cannot', async () => {
    let fail = true;
    const ran: string[] = [];
    const name = `dash.flaky${tag()}`;
    t.container.jobs.register<{ v: string }>(name, async ({ v }) => {
      if (fail) throw new Error(`坏了 ${v}`);
      ran.push(v);
    });
    await t.container.jobs.enqueue(name, { v: 'x' });
    await t.container.jobs.idle();

    const viewer = await loginAdmin(t, 'viewer');
    const dash = await t.call<AdminDashboard>('GET', '/admin/dashboard', { token: viewer.token });
    const failed = dash.data.queue.failed.find((f) => f.name === name);
    expect(failed).toMatchObject({ name, error: '坏了 x', attempts: 1 });
    expect(dash.data.queue.jobs.find((j) => j.name === name)).toMatchObject({ failed: 1 });
    expect(dash.data.days).toHaveLength(30);

    const body = { name, id: failed!.id };
    expect((await t.call('POST', '/admin/jobs/retry', { token: viewer.token, body })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    const op = await loginAdmin(t, 'operator');
    fail = false;
    const ok = await t.call('POST', '/admin/jobs/retry', { token: op.token, body });
    expect(ok.code, ok.msg).toBe(0);
    await t.container.jobs.idle();
    expect(ran).toEqual(['x']);
    expect((await t.call('POST', '/admin/jobs/retry', { token: op.token, body })).code).toBe(ErrorCode.NOT_FOUND);

    const audit = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action: 'jobs.retry', targetId: `${name}:${failed!.id}` } });
    expect(audit.data.records).toEqual([expect.objectContaining({ actorId: op.userId, targetType: 'job', before: { error: '坏了 x', attempts: 1 } })]);
    const bad = await t.call('POST', '/admin/jobs/retry', { token: op.token, body: { name: '', id: '1' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('name');
  });
});
