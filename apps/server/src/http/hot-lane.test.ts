import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { startTestApp, startWebProcesses, type TestApp, type WebProcess } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { describeNeeding } from '../test/database.js';
import { platformAccounts, users } from '../db/schema/index.js';
import { hotLaneOf } from './hot-lane.js';

/** Headers that differ between any two replies (time, per-request id, connection handling). */
const VARYING = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding']);

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const stable = (headers: Iterable<[string, string]>) => Object.fromEntries([...headers].filter(([name]) => !VARYING.has(name.toLowerCase())).map(([n, v]) => [n.toLowerCase(), v]));

/** The call over real HTTP (node:http: fetch refuses a GET with a body): through the hot lane when it takes it. */
function overHttp(t: TestApp, path: string, init: { method?: string; token?: string; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { [TOKEN_NAME]: init.token } : {}),
        // Node's client sends a GET's body without a length unless told: state it, as any real client does.
        ...(init.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(init.body)) } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: stable(pairs), body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The same call injected into Fastify: always the general pipeline. */
async function throughPipeline(app: FastifyInstance, path: string, init: { method?: string; token?: string; body?: string } = {}): Promise<Reply> {
  const res = await app.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: path,
    headers: { ...(init.token ? { [TOKEN_NAME]: init.token } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: init.body,
  });
  return { status: res.statusCode, headers: stable(Object.entries(res.headers).map(([n, v]) => [n, String(v)])), body: res.body };
}

/**
 * The hot lane answers polls with a live session before Fastify's routing (http/hot-lane.ts). These hold it to what it
 * promises: the same bytes as the pipeline, the same rate limits, and every case it is not sure of left to the pipeline.
 */
describe('hot lane', () => {
  let t: TestApp;
  let token: string;
  let accountId: number;
  let othersAccountId: number;
  const answered = () => hotLaneOf(t.app)!.stats().answered;

  beforeAll(async () => {
    t = await startTestApp();
    const me = await loginByPhone(t);
    const other = await loginByPhone(t);
    token = me.tokenValue;
    const unread = { unread_count: 3, likes: 12, connections: 1, mentions: 0, extra: '不在接口里' };
    const rows = await t.container.db
      .insert(platformAccounts)
      .values([
        { userId: me.user.id, platform: 'xhs', platformUserId: `xhs${me.user.id}`, accountName: '我的号', unread, lastSyncedAt: new Date() },
        { userId: other.user.id, platform: 'xhs', platformUserId: `xhs${other.user.id}`, accountName: '别人的号', unread, lastSyncedAt: new Date() },
      ])
      .returning({ id: platformAccounts.id });
    accountId = rows[0]!.id;
    othersAccountId = rows[1]!.id;
    await t.container.services.notices.publish({ title: '公告', content: '内容' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers each polled route with the bytes and headers the pipeline answers', async () => {
    for (const path of ['/api/auth/isLogin', '/api/notice/bubble', `/api/publish/account/unread?accountId=${accountId}`]) {
      const before = answered();
      const lane = await overHttp(t, path, { token });
      expect(answered(), path).toBe(before + 1);
      const pipeline = await throughPipeline(t.app, path, { token });
      expect(lane, path).toEqual(pipeline);
      expect(JSON.parse(lane.body).code, path).toBe(0);
    }
    // The stored counts carry a field the reply schema does not: it is left out, as the pipeline leaves it out.
    const unread = JSON.parse((await overHttp(t, `/api/publish/account/unread?accountId=${accountId}`, { token })).body);
    expect(unread.data).toEqual({ unread_count: 3, likes: 12, connections: 1, mentions: 0 });
  });

  it('leaves every call it cannot answer exactly to the pipeline, which answers it as before', async () => {
    const cases: Array<[string, { method?: string; token?: string; body?: string }]> = [
      ['/api/auth/isLogin', {}],
      ['/api/auth/isLogin', { token: 'not-a-token' }],
      ['/api/notice/bubble', {}],
      ['/api/notice/bubble', { token: 'not-a-token' }],
      ['/api/notice/bubble', { method: 'POST', token }],
      ['/api/notice/bubble', { method: 'HEAD', token }],
      ['/api/notice/bubble', { method: 'GET', token, body: '{}' }],
      ['/api/publish/account/unread?accountId=abc', { token }],
      ['/api/publish/account/unread', { token }],
      [`/api/publish/account/unread?accountId=${accountId}&accountId=${accountId}`, { token }],
      [`/api/publish/account/unread?accountId=${accountId}%00`, { token }],
      [`/api/publish/account/unread?account%49d=${accountId}`, { token }],
    ];
    for (const [path, init] of cases) {
      const before = answered();
      const lane = await overHttp(t, path, init);
      expect(answered(), `${init.method ?? 'GET'} ${path}`).toBe(before);
      expect(lane, `${init.method ?? 'GET'} ${path}`).toEqual(await throughPipeline(t.app, path, init));
    }
  });

  it("hands an answer that refuses (another creator's account) to the pipeline, which refuses it", async () => {
    const { passed } = hotLaneOf(t.app)!.stats();
    const res = await t.call('GET', '/publish/account/unread', { token, query: { accountId: othersAccountId } });
    expect(res.code).toBe(ErrorCode.NOT_FOUND);
    expect(hotLaneOf(t.app)!.stats().passed).toBe(passed + 1);
  });

  it('refuses a session revoked a moment ago, through the pipeline', async () => {
    const session = await loginByPhone(t);
    expect((await t.call<boolean>('GET', '/auth/isLogin', { token: session.tokenValue })).data).toBe(true);
    expect((await t.call('GET', '/auth/logout', { token: session.tokenValue })).code).toBe(0);
    const before = answered();
    expect((await t.call('GET', '/notice/bubble', { token: session.tokenValue })).code).not.toBe(0);
    expect(answered()).toBe(before);
  });
});

describe('hot lane and the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("spends the session's budget the pipeline spends: the lane's answers count, and the call over the limit is refused", async () => {
    const { tokenValue } = await loginByPhone(t);
    const before = hotLaneOf(t.app)!.stats().answered;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await t.call('GET', '/notice/bubble', { token: tokenValue })).code);
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(hotLaneOf(t.app)!.stats().answered).toBe(before + 4);
    // The fifth call of the minute is a pipeline route: still within the limit, and counted with the lane's four.
    expect((await t.call('GET', '/auth/nowLoginUser', { token: tokenValue })).code).toBe(0);
    const over = await t.call('GET', '/notice/bubble', { token: tokenValue });
    expect(over.code).toBe(ErrorCode.RATE_LIMITED);
    expect((await t.call('GET', '/auth/isLogin', { token: tokenValue })).code).toBe(ErrorCode.RATE_LIMITED);
  });

  it("counts the unread poll against that route's own limit (240 a minute), not the global one", async () => {
    const { tokenValue, user } = await loginByPhone(t);
    const [account] = await t.container.db
      .insert(platformAccounts)
      .values({ userId: user.id, platform: 'xhs', platformUserId: `xhs-limit-${user.id}`, accountName: '限流', lastSyncedAt: new Date() })
      .returning({ id: platformAccounts.id });
    const codes = new Set<number>();
    for (let i = 0; i < 240; i++) codes.add((await t.call('GET', '/publish/account/unread', { token: tokenValue, query: { accountId: account!.id } })).code);
    expect([...codes]).toEqual([0]);
    const over = await t.call('GET', '/publish/account/unread', { token: tokenValue, query: { accountId: account!.id } });
    expect(over.code).toBe(ErrorCode.RATE_LIMITED);
  });
});

describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], 'hot lane across two processes on PostgreSQL + Redis', (adminUrl, redisUrl) => {
  let started: WebProcess[] = [];
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const pair = await startWebProcesses(adminUrl, redisUrl, { RATE_LIMIT_PER_MINUTE: '6' });
    started = pair.processes;
    close = pair.close;
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  it('shares one budget in Redis: three answers on A and three on B spend it, the seventh is refused on either', async () => {
    const [a, b] = started as [WebProcess, WebProcess];
    const [user] = await a.container.db
      .insert(users)
      .values({ uid: 'lane2p', username: 'u_lane2p', nickname: '两进程', phone: '13900008888', inviteCode: 'LANE2P' })
      .returning({ id: users.id });
    const { tokenValue } = await a.container.services.sessions.create(user!.id, {});
    const bubble = async (url: string) => ((await (await fetch(`${url}/api/notice/bubble`, { headers: { [TOKEN_NAME]: tokenValue } })).json()) as { code: number }).code;
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(await bubble(a.url), await bubble(b.url));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(hotLaneOf(a.app)!.stats().answered).toBe(3);
    expect(hotLaneOf(b.app)!.stats().answered).toBe(3);
    expect(await bubble(a.url)).toBe(ErrorCode.RATE_LIMITED);
    expect(await bubble(b.url)).toBe(ErrorCode.RATE_LIMITED);
  });
});
