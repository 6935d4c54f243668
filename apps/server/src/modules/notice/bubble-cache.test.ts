import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TOKEN_NAME, type NoticeBubble } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { openFreshPostgres, describeNeeding, describeOnDatabases } from '../../test/database.js';
import { notices, users } from '../../db/schema/index.js';
import { loadConfig } from '../../config.js';
import { createContainer, type Container } from '../../container.js';
import { buildApp } from '../../app.js';
import { createLogger } from '../../logger.js';

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
  const started: { app: FastifyInstance; container: Container }[] = [];
  let close: () => Promise<void> = async () => undefined;
  const urls: string[] = [];

  beforeAll(async () => {
    const fresh = await openFreshPostgres(pgUrl, 't');
    close = fresh.close;
    const env = {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      APP_SECRET_KEY: 'ab'.repeat(32),
      WELCOME_POINTS: '0',
      DATABASE_URL: fresh.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
    };
    for (let i = 0; i < 2; i++) {
      const config = loadConfig({ ...env, ROLES: 'web' });
      // The first process uses the migrated handle; the second opens its own pool on the same database.
      const container = await createContainer(config, { logger: createLogger(config), ...(i === 0 ? { database: { ...fresh, close: async () => undefined } } : {}) });
      await container.cacheBus.ready();
      const app = await buildApp(container);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      urls.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      started.push({ app, container });
    }
  }, 120_000);
  afterAll(async () => {
    for (const s of started.reverse()) {
      await s.app.close();
      await s.container.close().catch(() => undefined);
    }
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
