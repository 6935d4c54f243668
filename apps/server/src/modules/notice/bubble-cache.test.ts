import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_NAME, type NoticeBubble } from '@inkstone/shared';
import { startTestApp, startWebProcesses, type TestApp, type WebProcess } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeNeeding, describeOnDatabases } from '../../test/database.js';
import { notices, users } from '../../db/schema/index.js';

/**
 * The bubble's per-user count is cached in process (every online user polls it every 15 s); these prove every write that
 * changes a count reaches the cache, in this process and, over Redis, in the others.
 */
describeOnDatabases('notice bubble cache on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  const bubble = async (token: string) => {
    const res = await t.call<NoticeBubble>('GET', '/notice/bubble', { token });
    expect(res.code).toBe(0);
    return res.data.unreadNoticeNum;
  };
  const publish = (input: { userId?: number; publishedAt?: Date } = {}) => t.container.services.notices.publish({ title: '公告', content: '内容', ...input });

  it('is served from the cache until a write through the services changes it', async () => {
    const a = await loginByPhone(t);
    const start = await bubble(a.tokenValue);
    // Written behind the services' back: the cached count stands (this is what makes the poll cheap)...
    await t.container.db.insert(notices).values({ title: '手工', content: '内容', type: 'system', userId: a.user.id, createdAt: new Date(), publishedAt: new Date() });
    expect(await bubble(a.tokenValue)).toBe(start);
    // ...until the services are told.
    t.container.services.notices.dropCachedCounts();
    expect(await bubble(a.tokenValue)).toBe(start + 1);
  });

  it('moves on a broadcast, a personal notice, a read and read-all', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const base = await bubble(a.tokenValue);
    const baseB = await bubble(b.tokenValue);
    const n = await publish();
    expect(await bubble(a.tokenValue)).toBe(base + 1);
    expect(await bubble(b.tokenValue)).toBe(baseB + 1);
    await publish({ userId: a.user.id });
    expect(await bubble(a.tokenValue)).toBe(base + 2);
    expect(await bubble(b.tokenValue)).toBe(baseB + 1);
    await t.container.services.personalNotices.notify({ userId: b.user.id, key: `k:${randomBytes(4).toString('hex')}`, title: '发布成功', content: '内容', link: null });
    expect(await bubble(b.tokenValue)).toBe(baseB + 2);
    expect((await t.call('POST', '/notice/read', { token: a.tokenValue, query: { id: n.id } })).code).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(base + 1);
    expect((await t.call('POST', '/notice/all/read', { token: a.tokenValue })).code).toBe(0);
    expect(await bubble(a.tokenValue)).toBe(0);
  });

  it("moves on a notice written inside another module's transaction (a feedback reply), once it commits", async () => {
    const a = await loginByPhone(t);
    const before = await bubble(a.tokenValue);
    const fb = await t.container.services.feedback.submit(a.user.id, { content: '编辑器卡顿', images: [] });
    await t.container.services.feedback.reply(fb.id, '谢谢反馈，已修复');
    expect(await bubble(a.tokenValue)).toBe(before + 1);
  });

  it('counts a notice published ahead of time once it comes due, without any write', async () => {
    const a = await loginByPhone(t);
    const before = await bubble(a.tokenValue);
    await publish({ publishedAt: new Date(t.clock.now().getTime() + 3_600_000) });
    await publish({ userId: a.user.id, publishedAt: new Date(t.clock.now().getTime() + 7_200_000) });
    expect(await bubble(a.tokenValue)).toBe(before);
    t.clock.advance(3_600_000 + 1000);
    expect(await bubble(a.tokenValue)).toBe(before + 1);
    t.clock.advance(3_600_000);
    expect(await bubble(a.tokenValue)).toBe(before + 2);
  });
});

/** Two web processes on one PostgreSQL database and one Redis: a write on A moves B's bubble. */
describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], 'notice bubble across two processes (PostgreSQL + Redis)', (pgUrl, redisUrl) => {
  let urls: string[] = [];
  let started: WebProcess[] = [];
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const pair = await startWebProcesses(pgUrl, redisUrl);
    started = pair.processes;
    urls = started.map((p) => p.url);
    close = pair.close;
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  it("a notice published on A and a read on A move B's bubble within 100 ms", async () => {
    const a = started[0]!;
    const [user] = await a.container.db
      .insert(users)
      .values({ uid: 'bubble2p', username: 'u_bubble2p', nickname: '两进程', phone: '13900009999', inviteCode: 'BUB2P' })
      .returning({ id: users.id });
    const { tokenValue } = await a.container.services.sessions.create(user!.id, {});
    const bubbleOnB = async () =>
      ((await (await fetch(`${urls[1]}/api/notice/bubble`, { headers: { [TOKEN_NAME]: tokenValue } })).json()) as { data: NoticeBubble }).data.unreadNoticeNum;
    expect(await bubbleOnB()).toBe(0);
    const n = await a.container.services.notices.publish({ title: '公告', content: '内容' });
    const t0 = Date.now();
    while ((await bubbleOnB()) !== 1) {
      expect(Date.now() - t0).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 5));
    }
    await a.container.services.notices.markRead(user!.id, n.id);
    const t1 = Date.now();
    while ((await bubbleOnB()) !== 0) {
      expect(Date.now() - t1).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
});
