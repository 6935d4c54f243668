import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type NoticeBubble, type NoticeItem, type NoticePage } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { noticeReads, notices } from '../../db/schema/index.js';
import { commands } from '../../cli/commands.js';

const DAY = 24 * 60 * 60 * 1000;

describeOnDatabases('notice centre on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });
  // Broadcasts reach every user, so each test starts from an empty notice centre.
  beforeEach(async () => {
    await t.container.db.delete(noticeReads);
    await t.container.db.delete(notices);
    t.container.services.notices.dropCachedCounts();
  });

  const publish = (input: { title?: string; content?: string; type?: 'system' | 'activity' | 'update'; userId?: number | null; publishedAt?: Date }) =>
    t.container.services.notices.publish({ title: input.title ?? '公告', content: input.content ?? '内容', ...input });
  const bubble = async (token: string) => {
    const res = await t.call<NoticeBubble>('GET', '/notice/bubble', { token });
    expect(res.code).toBe(0);
    return res.data.unreadNoticeNum;
  };
  const list = (token: string, query: Record<string, string | number> = {}) => t.call<NoticePage>('GET', '/notice/v2/list', { token, query });
  const readRows = async (userId: number) => (await t.container.db.select().from(noticeReads).where(eq(noticeReads.userId, userId))).length;

  it('every notice route needs a session', async () => {
    const n = await publish({});
    for (const [method, path] of [
      ['GET', '/notice/v2/list'],
      ['GET', '/notice/bubble'],
      ['GET', `/notice/detail?id=${n.id}`],
      ['POST', `/notice/read?id=${n.id}`],
      ['POST', '/notice/all/read'],
    ] as const) {
      const res = await t.call(method, path);
      expect(res.status).toBe(200);
      expect(res.code).toBe(ErrorCode.NOT_LOGGED_IN);
    }
    expect((await t.call('GET', '/notice/bubble', { token: 'not-a-real-token' })).code).toBe(ErrorCode.NOT_LOGGED_IN);
    expect(await t.container.db.select().from(noticeReads)).toHaveLength(0);
  });

  it('lists broadcast and personal notices newest first with the exact item shape', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const old = await publish({ title: '系统维护', content: '今晚 **22:00** 维护', type: 'system', publishedAt: new Date(Date.now() - 60_000) });
    const mine = await publish({ title: '你的稿件已发布', type: 'update', userId: a.user.id });
    const res = await list(a.tokenValue);
    expect(res.code).toBe(0);
    expect(res.data).toEqual({
      records: [
        { id: mine.id, title: '你的稿件已发布', content: '内容', format: 'text', type: 'update', createdAt: mine.publishedAt.toISOString(), read: false, link: null },
        { id: old.id, title: '系统维护', content: '今晚 **22:00** 维护', format: 'text', type: 'system', createdAt: old.publishedAt.toISOString(), read: false, link: null },
      ],
      total: 2,
      pageNum: 1,
      pageSize: 20,
    });
    expect(new Date(res.data.records[0]!.createdAt).toISOString()).toBe(res.data.records[0]!.createdAt);
    // The other user sees the broadcast only.
    const other = await list(b.tokenValue);
    expect(other.data.records.map((r) => r.id)).toEqual([old.id]);
    expect(other.data.total).toBe(1);
  });

  it('counts unread in the bubble and marks read idempotently', async () => {
    const a = await loginByPhone(t);
    expect(await bubble(a.tokenValue)).toBe(0);
    const n1 = await publish({ title: '一' });
    const n2 = await publish({ title: '二', userId: a.user.id });
    await publish({ title: '三', type: 'activity' });
    expect(await bubble(a.tokenValue)).toBe(3);

    const r1 = await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: n1.id } });
    expect(r1).toMatchObject({ code: 0, data: null });
    expect(await bubble(a.tokenValue)).toBe(2);
    const [first] = await t.container.db.select().from(noticeReads).where(eq(noticeReads.noticeId, n1.id));
    t.clock.advance(5_000);
    expect((await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: n1.id } })).code).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(2);
    const again = await t.container.db.select().from(noticeReads).where(eq(noticeReads.noticeId, n1.id));
    expect(again).toHaveLength(1);
    expect(again[0]!.readAt.getTime()).toBe(first!.readAt.getTime());

    expect((await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: String(n2.id) } })).code).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(1);
    const page = await list(a.tokenValue);
    expect(Object.fromEntries(page.data.records.map((r) => [r.title, r.read]))).toEqual({ 一: true, 二: true, 三: false });
  });

  it('keeps read state per user for broadcasts', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const n = await publish({});
    await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: n.id } });
    expect(await bubble(a.tokenValue)).toBe(0);
    expect(await bubble(b.tokenValue)).toBe(1);
    expect((await list(b.tokenValue)).data.records[0]!.read).toBe(false);
  });

  it('never shows, details or reads another user’s personal notice', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const secret = await publish({ title: 'A 的私信', userId: a.user.id });
    expect(await bubble(b.tokenValue)).toBe(0);
    expect((await list(b.tokenValue)).data).toMatchObject({ records: [], total: 0 });

    const detail = await t.call('GET', '/notice/detail', { token: b.tokenValue, query: { id: secret.id } });
    expect(detail).toMatchObject({ code: ErrorCode.NOT_FOUND, data: null });
    expect(JSON.stringify(detail)).not.toContain('A 的私信');
    const read = await t.call('POST', '/notice/read', { token: b.tokenValue, query: { id: secret.id } });
    expect(read.code).toBe(ErrorCode.NOT_FOUND);
    // Same answer as for an id that does not exist at all.
    const missing = await t.call('POST', '/notice/read', { token: b.tokenValue, query: { id: secret.id + 1000 } });
    expect(missing).toMatchObject({ code: read.code, msg: read.msg });
    expect((await t.call('POST', '/notice/all/read', { token: b.tokenValue })).code).toBe(0);
    expect(await readRows(b.user.id)).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(1);
  });

  it('serves the detail without marking it read', async () => {
    const a = await loginByPhone(t);
    const n = await publish({ title: '详情', content: '第一段\n\n第二段', type: 'activity' });
    const res = await t.call<NoticeItem>('GET', '/notice/detail', { token: a.tokenValue, query: { id: n.id } });
    expect(res.code).toBe(0);
    expect(res.data).toEqual({
      id: n.id,
      title: '详情',
      content: '第一段\n\n第二段',
      format: 'text',
      type: 'activity',
      createdAt: n.publishedAt.toISOString(),
      read: false,
      link: null,
    });
    expect(await bubble(a.tokenValue)).toBe(1);
    await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: n.id } });
    expect((await t.call<NoticeItem>('GET', '/notice/detail', { token: a.tokenValue, query: { id: n.id } })).data.read).toBe(true);
  });

  it('marks every visible notice read at once', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const pre = await publish({});
    await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: pre.id } });
    for (let i = 0; i < 4; i++) await publish({ title: `广播${i}` });
    await publish({ userId: a.user.id });
    await publish({ userId: b.user.id });
    expect(await bubble(a.tokenValue)).toBe(5);
    expect((await t.call('POST', '/notice/all/read', { token: a.tokenValue })).code).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(0);
    expect(await readRows(a.user.id)).toBe(6);
    expect((await list(a.tokenValue)).data.records.every((r) => r.read)).toBe(true);
    // Repeating changes nothing; B is untouched; a later notice is unread again.
    expect((await t.call('POST', '/notice/all/read', { token: a.tokenValue })).code).toBe(0);
    expect(await readRows(a.user.id)).toBe(6);
    expect(await bubble(b.tokenValue)).toBe(6);
    await publish({ title: '新公告' });
    expect(await bubble(a.tokenValue)).toBe(1);
  });

  it('pages and filters by type', async () => {
    const a = await loginByPhone(t);
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 25; i++) {
      await publish({ title: `n${i}`, type: i % 5 === 0 ? 'activity' : 'system', userId: i % 2 ? a.user.id : null, publishedAt: new Date(base + i * 1000) });
    }
    const p1 = await list(a.tokenValue, { pageNum: 1, pageSize: 10 });
    expect(p1.data).toMatchObject({ total: 25, pageNum: 1, pageSize: 10 });
    expect(p1.data.records.map((r) => r.title)).toEqual(['n24', 'n23', 'n22', 'n21', 'n20', 'n19', 'n18', 'n17', 'n16', 'n15']);
    const p3 = await list(a.tokenValue, { pageNum: 3, pageSize: 10 });
    expect(p3.data.records.map((r) => r.title)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
    const beyond = await list(a.tokenValue, { pageNum: 9, pageSize: 10 });
    expect(beyond.data).toMatchObject({ records: [], total: 25, pageNum: 9 });
    const activity = await list(a.tokenValue, { type: 'activity', pageSize: 200 });
    expect(activity.data.total).toBe(5);
    expect(activity.data.records.map((r) => r.title)).toEqual(['n20', 'n15', 'n10', 'n5', 'n0']);
    expect(activity.data.records.every((r) => r.type === 'activity')).toBe(true);
    expect((await list(a.tokenValue, { type: 'update' })).data).toMatchObject({ records: [], total: 0 });
    // `type=` means all types.
    expect((await list(a.tokenValue, { type: '' })).data.total).toBe(25);
  });

  it('rejects bad input naming the field and changes nothing', async () => {
    const a = await loginByPhone(t);
    const n = await publish({});
    const cases: [string, string, Record<string, string | number>, string][] = [
      ['POST', '/notice/read', {}, 'id'],
      ['POST', '/notice/read', { id: 'abc' }, 'id'],
      ['POST', '/notice/read', { id: '1.5' }, 'id'],
      ['POST', '/notice/read', { id: '-3' }, 'id'],
      ['POST', '/notice/read', { id: '' }, 'id'],
      ['GET', '/notice/detail', {}, 'id'],
      ['GET', '/notice/detail', { id: `${n.id}x` }, 'id'],
      ['GET', '/notice/v2/list', { pageSize: 201 }, 'pageSize'],
      ['GET', '/notice/v2/list', { pageSize: 0 }, 'pageSize'],
      ['GET', '/notice/v2/list', { pageNum: 'x' }, 'pageNum'],
      ['GET', '/notice/v2/list', { type: 'spam' }, 'type'],
    ];
    for (const [method, path, query, field] of cases) {
      const res = await t.call(method, path, { token: a.tokenValue, query });
      expect(res.status, `${method} ${path} ${JSON.stringify(query)}`).toBe(200);
      expect(res.code, `${method} ${path} ${JSON.stringify(query)}`).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toContain(field);
    }
    expect(await readRows(a.user.id)).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(1);
  });

  it('shows broadcasts from up to 30 days before registration, and scheduled ones only once published', async () => {
    const now = t.clock.now().getTime();
    const tooOld = await publish({ title: '31天前', publishedAt: new Date(now - 31 * DAY) });
    const recent = await publish({ title: '29天前', publishedAt: new Date(now - 29 * DAY) });
    const scheduled = await publish({ title: '定时', publishedAt: new Date(now + 2 * 60 * 60 * 1000) });
    const a = await loginByPhone(t);
    expect((await list(a.tokenValue)).data.records.map((r) => r.title)).toEqual(['29天前']);
    expect(await bubble(a.tokenValue)).toBe(1);
    expect((await t.call('GET', '/notice/detail', { token: a.tokenValue, query: { id: tooOld.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: scheduled.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/notice/all/read', { token: a.tokenValue })).code).toBe(0);
    expect(await readRows(a.user.id)).toBe(1);

    t.clock.advance(3 * 60 * 60 * 1000);
    expect(await bubble(a.tokenValue)).toBe(1);
    const page = await list(a.tokenValue);
    expect(page.data.records.map((r) => [r.id, r.read])).toEqual([
      [scheduled.id, false],
      [recent.id, true],
    ]);
  });

  it('publishes and lists through the admin CLI', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const all = (await commands['notice:publish']!.run(t.container, { title: '全员公告', content: '你好', type: 'update' })) as { id: number; audience: string };
    expect(all.audience).toBe('all');
    const byPhone = (await commands['notice:publish']!.run(t.container, { title: '给A', content: '私信', phone: a.phone })) as { userId: number; type: string };
    expect(byPhone).toMatchObject({ userId: a.user.id, type: 'system' });
    await commands['notice:publish']!.run(t.container, { title: '给B', content: '私信', 'user-id': String(b.user.id), link: '/orderInfo' });
    const forB = await list(b.tokenValue);
    expect(forB.data.records.find((r) => r.title === '给B')?.link).toBe('/orderInfo');
    expect(await bubble(a.tokenValue)).toBe(2);
    expect(await bubble(b.tokenValue)).toBe(2);
    await t.call('POST', '/notice/read', { token: b.tokenValue, query: { id: all.id } });

    await expect(commands['notice:publish']!.run(t.container, { title: '坏', content: 'x', type: 'spam' })).rejects.toThrow(/--type/);
    await expect(commands['notice:publish']!.run(t.container, { title: '坏', content: 'x', phone: '13000000000' })).rejects.toThrow(/13000000000/);
    await expect(commands['notice:publish']!.run(t.container, { content: 'x' })).rejects.toThrow(/--title/);
    await expect(commands['notice:publish']!.run(t.container, { title: 'x'.repeat(101), content: 'x' })).rejects.toThrow(/title/);
    // A link is an in-app path only: an outside address could send users anywhere from a trusted notice.
    await expect(commands['notice:publish']!.run(t.container, { title: '坏', content: 'x', link: 'https://evil.example/' })).rejects.toThrow(/link/);
    await expect(commands['notice:publish']!.run(t.container, { title: '坏', content: 'x', link: '//evil.example/' })).rejects.toThrow(/link/);

    const listed = (await commands['notice:list']!.run(t.container, {})) as { title: string; audience: string; readCount: number }[];
    expect(listed.map((r) => [r.title, r.audience, r.readCount])).toEqual([
      ['给B', `user ${b.user.id}`, 0],
      ['给A', `user ${a.user.id}`, 0],
      ['全员公告', 'all', 1],
    ]);
  });
});
