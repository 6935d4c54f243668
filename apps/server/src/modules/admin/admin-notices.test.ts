import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type AdminAuditEntry, type AdminNotice, type NoticeBubble, type NoticeItem, type NoticePage, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin } from '../../test/admin-helpers.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { users } from '../../db/schema/index.js';

const MIN = 60_000;

describeOnDatabases('console notices on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  const bubble = async (token: string) => (await t.call<NoticeBubble>('GET', '/notice/bubble', { token })).data.unreadNoticeNum;
  const seen = async (token: string) => (await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { pageSize: 50 } })).data.records.map((r) => r.id);
  const create = (token: string, body: Record<string, unknown>) => t.call<AdminNotice>('POST', '/admin/notices/create', { token, body });

  it('a scheduled notice reaches users only from its time; withdrawn, it disappears from their list and bubble; both audited', async () => {
    const op = await loginAdmin(t, 'operator');
    const user = await loginByPhone(t);
    const before = await bubble(user.tokenValue);
    const at = new Date(t.clock.now().getTime() + 60 * MIN).toISOString();
    const made = await create(op.token, { title: '版本更新', content: '<p>新功能<strong>上线</strong></p>', audience: 'all', publishAt: at });
    expect(made.code, made.msg).toBe(0);
    expect(made.data).toMatchObject({ status: 'scheduled', audience: 'all', format: 'html', publishedAt: at, readCount: 0 });
    const id = made.data.id;

    expect(await seen(user.tokenValue)).not.toContain(id);
    expect(await bubble(user.tokenValue)).toBe(before);
    expect((await t.call('GET', '/notice/detail', { token: user.tokenValue, query: { id } })).code).toBe(ErrorCode.NOT_FOUND);

    t.clock.advance(61 * MIN);
    expect(await seen(user.tokenValue)).toContain(id);
    expect(await bubble(user.tokenValue)).toBe(before + 1);
    const detail = await t.call<NoticeItem>('GET', '/notice/detail', { token: user.tokenValue, query: { id } });
    expect(detail.data).toMatchObject({ title: '版本更新', content: '<p>新功能<strong>上线</strong></p>', format: 'html' });
    expect((await t.call('POST', '/notice/read', { token: user.tokenValue, query: { id } })).code).toBe(0);

    // Writes after the idle window need a fresh console session: a new operator login.
    const op2 = await loginAdmin(t, 'operator');
    const listed = await t.call<Page<AdminNotice>>('GET', '/admin/notices', { token: op2.token });
    const row = listed.data.records.find((n) => n.id === id)!;
    expect(row).toMatchObject({ status: 'published', readCount: 1 });
    expect(row.audienceSize).toBeGreaterThanOrEqual(2);
    expect(row.readRate).toBeCloseTo(1 / row.audienceSize);

    const other = await loginByPhone(t);
    expect(await seen(other.tokenValue)).toContain(id);
    const otherBefore = await bubble(other.tokenValue);
    const withdrawn = await t.call<AdminNotice>('POST', '/admin/notices/withdraw', { token: op2.token, body: { id } });
    expect(withdrawn.code, withdrawn.msg).toBe(0);
    expect(withdrawn.data.status).toBe('withdrawn');
    expect(await seen(user.tokenValue)).not.toContain(id);
    expect(await seen(other.tokenValue)).not.toContain(id);
    // The bubble was cached before the withdrawal: it drops by one without waiting for its TTL.
    expect(await bubble(other.tokenValue)).toBe(otherBefore - 1);
    expect((await t.call('GET', '/notice/detail', { token: other.tokenValue, query: { id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/admin/notices/withdraw', { token: op2.token, body: { id } })).code).toBe(ErrorCode.CONFLICT);

    const audit = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op2.token, query: { targetType: 'notice', targetId: String(id) } });
    expect(audit.data.records.map((r) => [r.action, r.actorId])).toEqual([
      ['notices.withdraw', op2.userId],
      ['notices.create', op.userId],
    ]);
    expect(audit.data.records[1]!.after).toMatchObject({ title: '版本更新', audience: 'all', publishedAt: at });
  });

  it('listed users and VIP members: only they see the notice', async () => {
    const op = await loginAdmin(t, 'operator');
    const [listed, vip, plain] = [await loginByPhone(t), await loginByPhone(t), await loginByPhone(t)];
    await t.container.db
      .update(users)
      .set({ vipType: 'vip', vipExpiredAt: new Date(t.clock.now().getTime() + 30 * 24 * 60 * MIN) })
      .where(eq(users.id, vip.user.id));

    const toListed = await create(op.token, { title: '给你', content: '<p>专属</p>', audience: 'users', userIds: [listed.user.id] });
    expect(toListed.code, toListed.msg).toBe(0);
    expect(toListed.data).toMatchObject({ audience: 'users', userIds: [listed.user.id], audienceSize: 1, readRate: 0 });
    const toVip = await create(op.token, { title: '会员专享', content: '<p>会员</p>', audience: 'vip' });
    expect(toVip.code, toVip.msg).toBe(0);

    expect(await seen(listed.tokenValue)).toContain(toListed.data.id);
    expect(await seen(listed.tokenValue)).not.toContain(toVip.data.id);
    expect(await seen(vip.tokenValue)).toContain(toVip.data.id);
    expect(await seen(vip.tokenValue)).not.toContain(toListed.data.id);
    expect(await seen(plain.tokenValue)).not.toContain(toVip.data.id);
    expect(await seen(plain.tokenValue)).not.toContain(toListed.data.id);
    expect((await t.call('GET', '/notice/detail', { token: plain.tokenValue, query: { id: toListed.data.id } })).code).toBe(ErrorCode.NOT_FOUND);

    const missing = await create(op.token, { title: 'x', content: 'y', audience: 'users', userIds: [99_999_999] });
    expect(missing.code).toBe(ErrorCode.VALIDATION);
    expect(missing.msg).toContain('userIds');
    const empty = await create(op.token, { title: 'x', content: 'y', audience: 'users' });
    expect(empty.code).toBe(ErrorCode.VALIDATION);
    expect(empty.msg).toContain('userIds');
    const badAudience = await create(op.token, { title: 'x', content: 'y', audience: 'everyone' });
    expect(badAudience.code).toBe(ErrorCode.VALIDATION);
    expect(badAudience.msg).toContain('audience');
  });

  it('the body is cleaned on the server: no script, handler, style or javascript: link reaches users', async () => {
    const op = await loginAdmin(t, 'operator');
    const made = await create(op.token, {
      title: '清洗',
      content:
        '<p onclick="x()" style="color:red">正文<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">坏链</a><a href="https://example.com/a" target="_blank">好链</a><iframe src="//evil"></iframe></p><!-- c -->',
      audience: 'all',
    });
    expect(made.code, made.msg).toBe(0);
    expect(made.data.content).toBe('<p>正文<a>坏链</a><a href="https://example.com/a" rel="noopener noreferrer">好链</a></p>');
    const onlyTags = await create(op.token, { title: '空', content: '<script>alert(1)</script><p> </p>', audience: 'all' });
    expect(onlyTags.code).toBe(ErrorCode.VALIDATION);
    expect(onlyTags.msg).toContain('content');
  });

  it('support reads the list but cannot compose or withdraw', async () => {
    const support = await loginAdmin(t, 'support');
    expect((await t.call('GET', '/admin/notices', { token: support.token })).code).toBe(0);
    expect((await create(support.token, { title: 'x', content: 'y', audience: 'all' })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    expect((await t.call('POST', '/admin/notices/withdraw', { token: support.token, body: { id: 1 } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    const viewer = await loginAdmin(t, 'viewer');
    expect((await t.call('GET', '/admin/notices', { token: viewer.token })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
  });
});
