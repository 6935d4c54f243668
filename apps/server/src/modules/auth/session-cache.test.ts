import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { startTestApp, startWebProcesses, type TestApp, type WebProcess } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { sessions, users } from '../../db/schema/index.js';

/**
 * Live sessions are cached in process (every call authenticates); these prove a logout or revocation is refused at
 * once, in this process and, over Redis, in the others.
 */
describeOnDatabases('session cache on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });
  const isLogin = async (token: string) => (await t.call<boolean>('GET', '/auth/isLogin', { token })).code;

  it('serves a live session from the cache (a change made behind the service is not seen at once)', async () => {
    const a = await loginByPhone(t);
    expect(await isLogin(a.tokenValue)).toBe(0);
    // Revoked by hand in the database: the cached entry stands until its TTL, which is what makes polls cheap...
    await t.container.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, a.user.id));
    expect(await isLogin(a.tokenValue)).toBe(0);
    // ...while a revocation through the service is refused at once.
    await t.container.services.sessions.revokeAll(a.user.id, 'test');
    expect(await isLogin(a.tokenValue)).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('past the touch interval answers from the cache and reads the row behind the answer, once per token', async () => {
    const a = await loginByPhone(t);
    expect(await isLogin(a.tokenValue)).toBe(0);
    const svc = t.container.services.sessions;
    const repo = (svc as unknown as { repo: { byTokenHash: (h: string) => Promise<unknown> } }).repo;
    const read = repo.byTokenHash.bind(repo);
    let reads = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    repo.byTokenHash = async (h: string) => {
      reads++;
      await held;
      return read(h);
    };
    try {
      const [before] = await t.container.db.select().from(sessions).where(eq(sessions.userId, a.user.id));
      t.clock.advance(61_000);
      // Revoked by hand: the calls past the interval are still answered (the read is held back)...
      await t.container.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, a.user.id));
      expect(await Promise.all([isLogin(a.tokenValue), isLogin(a.tokenValue), isLogin(a.tokenValue)])).toEqual([0, 0, 0]);
      expect(reads).toBe(1);
      release();
      // ...and once the read behind them is done, the session is refused.
      await expect.poll(() => isLogin(a.tokenValue), { timeout: 2_000 }).toBe(ErrorCode.SESSION_REVOKED);
      await t.container.db.update(sessions).set({ revokedAt: null }).where(eq(sessions.userId, a.user.id));
      expect(await isLogin(a.tokenValue)).toBe(0);
      const [after] = await t.container.db.select().from(sessions).where(eq(sessions.userId, a.user.id));
      expect(after!.lastSeenAt.getTime()).toBeGreaterThan(before!.lastSeenAt.getTime());
    } finally {
      repo.byTokenHash = read;
      release();
    }
  });

  it('sessions cached in the same second are read again spread over the half interval before it, each once', async () => {
    const svc = t.container.services.sessions;
    const [user] = await t.container.db
      .insert(users)
      .values({ uid: `spread${dbKind}`, username: `u_spread_${dbKind}`, nickname: '分散', phone: dbKind === 'pglite' ? '13900007701' : '13900007702', inviteCode: `SPR${dbKind}` })
      .returning({ id: users.id });
    const tokens: string[] = [];
    for (let i = 0; i < 40; i++) tokens.push((await svc.create(user!.id, {})).tokenValue);
    for (const token of tokens) await svc.authenticate(token);
    const repo = (svc as unknown as { repo: { byTokenHash: (h: string) => Promise<unknown> } }).repo;
    const read = repo.byTokenHash.bind(repo);
    const reads: string[] = [];
    repo.byTokenHash = async (h: string) => {
      reads.push(h);
      return read(h);
    };
    const pollAll = async () => {
      for (const token of tokens) await svc.authenticate(token);
      // Refreshes run behind the answers: let them finish.
      await new Promise((r) => setTimeout(r, 200));
    };
    try {
      t.clock.advance(29_000);
      await pollAll();
      expect(reads).toHaveLength(0);
      t.clock.advance(16_000);
      await pollAll();
      // 45 s after caching: the tokens due in the first half of the window (each token's lead is fixed by its hash).
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.length).toBeLessThan(40);
      t.clock.advance(16_000);
      await pollAll();
      // 61 s: every token read once, none twice.
      expect(reads).toHaveLength(40);
      expect(new Set(reads).size).toBe(40);
    } finally {
      repo.byTokenHash = read;
    }
  });

  it('while the refresh behind an answer writes its touch, the session is still answered from the cache', async () => {
    const a = await loginByPhone(t);
    expect(await isLogin(a.tokenValue)).toBe(0);
    const svc = t.container.services.sessions;
    const repo = (svc as unknown as { repo: { byTokenHash: (h: string) => Promise<unknown>; touch: (...a: unknown[]) => Promise<unknown> } }).repo;
    const read = repo.byTokenHash.bind(repo);
    const touch = repo.touch.bind(repo);
    let reads = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let touching!: () => void;
    const touchStarted = new Promise<void>((r) => (touching = r));
    repo.byTokenHash = async (h: string) => {
      reads++;
      return read(h);
    };
    repo.touch = async (...args: unknown[]) => {
      touching();
      await held;
      return touch(...args);
    };
    try {
      t.clock.advance(61_000);
      expect(await isLogin(a.tokenValue)).toBe(0);
      await touchStarted;
      // The refresh has read the row and waits on its touch (a busy database): the token must not look uncached, or
      // every poll of it would read and touch again, in the foreground.
      expect(await Promise.all([isLogin(a.tokenValue), isLogin(a.tokenValue), isLogin(a.tokenValue)])).toEqual([0, 0, 0]);
      expect(reads).toBe(1);
    } finally {
      release();
      repo.byTokenHash = read;
      repo.touch = touch;
    }
  });

  it('logout and logout of every device are refused on the next call', async () => {
    const a = await loginByPhone(t);
    // Two more devices of the same user.
    const b = await t.container.services.sessions.create(a.user.id, {});
    const c = await t.container.services.sessions.create(a.user.id, {});
    for (const s of [a, b, c]) expect(await isLogin(s.tokenValue)).toBe(0);
    expect((await t.call('GET', '/auth/logout', { token: a.tokenValue })).code).toBe(0);
    expect(await isLogin(a.tokenValue)).toBe(ErrorCode.SESSION_REVOKED);
    expect(await isLogin(b.tokenValue)).toBe(0);
    expect((await t.call('GET', '/auth/logout', { token: b.tokenValue, query: { device: 'all' } })).code).toBe(0);
    expect(await isLogin(b.tokenValue)).toBe(ErrorCode.SESSION_REVOKED);
    expect(await isLogin(c.tokenValue)).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('a lookup that raced a revocation is not cached', async () => {
    const a = await loginByPhone(t);
    const svc = t.container.services.sessions;
    // Both start together: the lookup may read the row before the revocation commits, but must not keep it.
    const [looked] = await Promise.allSettled([svc.authenticate(a.tokenValue), svc.revokeAll(a.user.id, 'test')]);
    void looked;
    await expect(svc.authenticate(a.tokenValue)).rejects.toMatchObject({ code: ErrorCode.SESSION_REVOKED });
  });
});

describe('session cache size', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CACHE_MAX_ENTRIES: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds CACHE_MAX_ENTRIES sessions: the one used longest ago is dropped and looked up again', async () => {
    const svc = t.container.services.sessions;
    const [user] = await t.container.db
      .insert(users)
      .values({ uid: 'cachesize', username: 'u_cachesize', nickname: '缓存', phone: '13900007703', inviteCode: 'CSZ1' })
      .returning({ id: users.id });
    const tokens: string[] = [];
    for (let i = 0; i < 1001; i++) tokens.push((await svc.create(user!.id, {})).tokenValue);
    for (const token of tokens.slice(0, 1000)) await svc.authenticate(token);
    // The 1,001st session pushes out the first (asking would count as a use); the second and the last stay.
    await svc.authenticate(tokens[1000]!);
    expect(svc.cachedSession(tokens[0]!)).toBeUndefined();
    expect(svc.cachedSession(tokens[1]!)).toBeDefined();
    expect(svc.cachedSession(tokens[1000]!)).toBeDefined();
    // Dropped from the cache is not logged out: the next call reads the row and caches it again.
    expect((await svc.authenticate(tokens[0]!)).userId).toBe(user!.id);
    expect(svc.cachedSession(tokens[0]!)).toBeDefined();
  });
});

/** Two web processes on one PostgreSQL database and one Redis: a session revoked on A is refused on B within 100 ms. */
const redisUrl = process.env.TEST_REDIS_URL;
const pgUrl = process.env.TEST_DATABASE_URL;
describe.runIf(redisUrl && pgUrl)('session revocation across two processes (PostgreSQL + Redis)', () => {
  let started: WebProcess[] = [];
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const pair = await startWebProcesses(pgUrl!, redisUrl!);
    started = pair.processes;
    close = pair.close;
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  it('B refuses the session within 100 ms of the logout on A, though B had it cached', async () => {
    const [a, b] = started as [WebProcess, WebProcess];
    const [user] = await a.container.db
      .insert(users)
      .values({ uid: 'sess2p', username: 'u_sess2p', nickname: '两进程', phone: '13900008888', inviteCode: 'SESS2P' })
      .returning({ id: users.id });
    const { tokenValue } = await a.container.services.sessions.create(user!.id, {});
    const codeOn = async (base: string) => ((await (await fetch(`${base}/api/auth/isLogin`, { headers: { [TOKEN_NAME]: tokenValue } })).json()) as { code: number }).code;
    expect(await codeOn(b.url)).toBe(0);
    expect(await codeOn(b.url)).toBe(0);
    expect((await (await fetch(`${a.url}/api/auth/logout`, { headers: { [TOKEN_NAME]: tokenValue } })).json()) as { code: number }).toMatchObject({ code: 0 });
    const t0 = Date.now();
    while ((await codeOn(b.url)) !== ErrorCode.SESSION_REVOKED) {
      expect(Date.now() - t0).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
});
