import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type AdminAuditEntry, type AdminUser, type AdminUserDetail, type LedgerEntry, type Page, type UserProfile, type VipUserInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { latestCode, loginByPhone } from '../../test/auth-helpers.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { platformAccounts } from '../../db/schema/index.js';
import { sha256Hex } from '../../security/hashing.js';
import { nextIp } from '../../test/app.js';

describeOnDatabases('console users on %s', (db) => {
  let t: TestApp;
  let operator: TestAdmin;
  let owner: TestAdmin;
  beforeAll(async () => {
    t = await startTestApp({ db });
    operator = await loginAdmin(t, 'operator');
    owner = await loginAdmin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  const auditOf = async (userId: number) =>
    (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: owner.token, query: { targetType: 'user', targetId: String(userId), pageSize: 100 } })).data.records;

  it('finds users by id, phone digits and nickname; viewers see masked phones', async () => {
    const u = await loginByPhone(t);
    const viewer = await loginAdmin(t, 'viewer');
    const byId = await t.call<Page<AdminUser>>('GET', '/admin/users', { token: operator.token, query: { q: String(u.user.id) } });
    expect(byId.data.records.map((r) => r.id)).toContain(u.user.id);
    const byPhone = await t.call<Page<AdminUser>>('GET', '/admin/users', { token: operator.token, query: { q: u.phone.slice(3) } });
    expect(byPhone.data.records.find((r) => r.id === u.user.id)?.phone).toBe(u.phone);
    const byNick = await t.call<Page<AdminUser>>('GET', '/admin/users', { token: viewer.token, query: { q: u.user.nickname } });
    const seen = byNick.data.records.find((r) => r.id === u.user.id)!;
    expect(seen.phone).toBe(`${u.phone.slice(0, 3)}****${u.phone.slice(-4)}`);
    expect((await t.call('GET', '/admin/users', { token: operator.token, query: { q: '%' } })).code).toBe(0);
    expect((await t.call('GET', '/admin/users/detail', { token: operator.token, query: { userId: 'abc' } })).code).toBe(ErrorCode.VALIDATION);
    expect((await t.call('GET', '/admin/users/detail', { token: operator.token, query: { userId: 99_999_999 } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('shows sessions and bound accounts without any token, token hash or platform cookie', async () => {
    const u = await loginByPhone(t);
    const cookie = 'web_session=SECRET-PLATFORM-COOKIE-0123456789';
    await t.container.db.insert(platformAccounts).values({ userId: u.user.id, platform: 'xiaohongshu', platformUserId: 'xhs-1', accountName: '小红书号', sessionEnc: cookie });
    const res = await t.call<AdminUserDetail>('GET', '/admin/users/detail', { token: operator.token, query: { userId: u.user.id } });
    expect(res.code).toBe(0);
    expect(res.data.sessions).toHaveLength(1);
    expect(res.data.sessions[0]).toMatchObject({ revokedAt: null });
    expect(res.data.boundAccounts).toEqual([expect.objectContaining({ platform: 'xiaohongshu', nickname: '小红书号', status: 'active' })]);
    const text = JSON.stringify(res);
    for (const secret of [u.tokenValue, sha256Hex(u.tokenValue), cookie, 'SECRET-PLATFORM-COOKIE', 'sessionEnc', 'tokenHash', 'token_hash']) expect(text).not.toContain(secret);
  });

  it('grants points through the ledger exactly once under retries, deducts, and audits each change once', async () => {
    const u = await loginByPhone(t);
    const body = { userId: u.user.id, direction: 'grant', amount: 300, reason: '活动补偿', requestId: 'grant-retry-0001' };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => t.call<{ duplicate: boolean; balance: number; delta: number }>('POST', '/admin/users/points', { token: operator.token, body })),
    );
    expect(replies.every((r) => r.code === 0)).toBe(true);
    expect(replies.filter((r) => !r.data.duplicate)).toHaveLength(1);
    expect(replies.every((r) => r.data.balance === 300 && r.data.delta === 300)).toBe(true);

    // The user's own ledger shows the grant once.
    const ledger = await t.call<Page<LedgerEntry>>('GET', '/vip/score/consume/list', { token: u.tokenValue });
    expect(ledger.data.records.filter((e) => e.kind === 'grant')).toEqual([expect.objectContaining({ delta: 300, reason: '后台发放：活动补偿', balanceAfter: 300 })]);
    // So does the console's view of it.
    const consoleLedger = await t.call<Page<LedgerEntry>>('GET', '/admin/users/ledger', { token: operator.token, query: { userId: u.user.id } });
    expect(consoleLedger.data.total).toBe(1);

    const deduct = await t.call<{ balance: number }>('POST', '/admin/users/points', {
      token: operator.token,
      body: { ...body, direction: 'deduct', amount: 120, reason: '误发收回', requestId: 'deduct-0001' },
    });
    expect(deduct.data.balance).toBe(180);
    const tooMuch = await t.call('POST', '/admin/users/points', { token: operator.token, body: { ...body, direction: 'deduct', amount: 181, requestId: 'deduct-0002' } });
    expect(tooMuch.code).toBe(ErrorCode.POINTS_INSUFFICIENT);
    const bad = await t.call('POST', '/admin/users/points', { token: operator.token, body: { ...body, amount: -5, requestId: 'negative-01' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('amount');
    expect((await t.call('POST', '/admin/users/points', { token: operator.token, body: { ...body, requestId: 'x' } })).msg).toContain('requestId');

    const log = await auditOf(u.user.id);
    expect(log.map((e) => e.action)).toEqual(['user.points.deduct', 'user.points.grant']);
    expect(log[1]).toMatchObject({ actorId: operator.userId, actorRole: 'operator', before: { pointsBalance: 0 }, after: { pointsBalance: 300, reason: '活动补偿' } });
  });

  it('extends and revokes VIP, resets the nickname, each audited with before and after', async () => {
    const u = await loginByPhone(t);
    const vip = async () => (await t.call<VipUserInfo>('GET', '/vip/user/info', { token: u.tokenValue })).data;
    expect((await vip()).isVip).toBe(false);
    const extended = await t.call<AdminUser>('POST', '/admin/users/vip', { token: operator.token, body: { userId: u.user.id, action: 'extend', days: 7, reason: '补偿' } });
    expect(extended.data.isVip).toBe(true);
    expect((await vip()).isVip).toBe(true);
    expect((await t.call('POST', '/admin/users/vip', { token: operator.token, body: { userId: u.user.id, action: 'pause', reason: 'x' } })).code).toBe(ErrorCode.VALIDATION);
    const revoked = await t.call<AdminUser>('POST', '/admin/users/vip', { token: operator.token, body: { userId: u.user.id, action: 'revoke', reason: '违规' } });
    expect(revoked.data.isVip).toBe(false);
    expect((await vip()).isVip).toBe(false);

    expect((await t.call('POST', '/user/change-nickname', { token: u.tokenValue, query: { nickname: '不雅昵称' } })).code).toBe(0);
    const support = await loginAdmin(t, 'support');
    const reset = await t.call<AdminUser>('POST', '/admin/users/nickname/reset', { token: support.token, body: { userId: u.user.id, reason: '昵称违规' } });
    expect(reset.data.nickname).toBe(`创作者${u.phone.slice(-4)}`);
    expect((await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: u.tokenValue })).data.nickname).toBe(`创作者${u.phone.slice(-4)}`);
    // Support may reset nicknames but not touch VIP.
    expect((await t.call('POST', '/admin/users/vip', { token: support.token, body: { userId: u.user.id, action: 'extend', days: 1, reason: 'x' } })).code).toBe(
      ErrorCode.ADMIN_FORBIDDEN,
    );

    const log = await auditOf(u.user.id);
    expect(log.map((e) => e.action)).toEqual(['user.nickname.reset', 'user.vip.revoke', 'user.vip.extend']);
    expect(log[0]).toMatchObject({ actorId: support.userId, before: { nickname: '不雅昵称' } });
    expect(log[2]!.before).toEqual({ vipExpiredAt: null });
    expect((log[2]!.after as { vipExpiredAt: string }).vipExpiredAt).toBe(extended.data.vipExpiredAt);
  });

  it('a ban revokes every session at once and refuses login with a clear message; unban lets the user log in again', async () => {
    const u = await loginByPhone(t);
    // A second device (a new code for the same phone waits out the resend interval).
    t.clock.advance(61_000);
    const second = await loginByPhone(t, u.phone);
    expect((await t.call('GET', '/auth/nowLoginUser', { token: u.tokenValue })).code).toBe(0);
    expect((await t.call('POST', '/admin/users/ban', { token: operator.token, body: { userId: operator.userId, banned: true, reason: 'x' } })).code).toBe(ErrorCode.FORBIDDEN);
    expect((await t.call('POST', '/admin/users/ban', { token: operator.token, body: { userId: owner.userId, banned: true, reason: 'x' } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);

    const banned = await t.call<AdminUser>('POST', '/admin/users/ban', { token: operator.token, body: { userId: u.user.id, banned: true, reason: '发布违规内容' } });
    expect(banned.data.bannedAt).not.toBeNull();
    for (const token of [u.tokenValue, second.tokenValue]) expect((await t.call('GET', '/auth/nowLoginUser', { token })).code).toBe(ErrorCode.SESSION_REVOKED);
    const detail = await t.call<AdminUserDetail>('GET', '/admin/users/detail', { token: operator.token, query: { userId: u.user.id } });
    expect(detail.data.sessions.every((s) => s.revokedAt !== null && s.revokedReason === 'banned')).toBe(true);

    const ip = nextIp();
    t.clock.advance(61_000);
    expect((await t.call('GET', '/auth/send/msg', { query: { phone: u.phone }, ip })).code).toBe(0);
    const refused = await t.call('POST', '/auth/doLogin0', { body: { phone: u.phone, code: await latestCode(t, u.phone) }, ip });
    expect(refused.code).toBe(ErrorCode.ACCOUNT_DISABLED);
    expect(refused.msg).toBe('账号已停用');

    expect(
      (await t.call<AdminUser>('POST', '/admin/users/ban', { token: operator.token, body: { userId: u.user.id, banned: false, reason: '申诉通过' } })).data.bannedAt,
    ).toBeNull();
    // Old sessions stay revoked; a new login works.
    expect((await t.call('GET', '/auth/nowLoginUser', { token: u.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
    t.clock.advance(61_000);
    const back = await loginByPhone(t, u.phone);
    expect((await t.call('GET', '/auth/nowLoginUser', { token: back.tokenValue })).code).toBe(0);

    expect((await auditOf(u.user.id)).map((e) => e.action)).toEqual(['user.unban', 'user.ban']);
  });
});
