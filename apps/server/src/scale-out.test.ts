import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME, type Envelope, type LoginConnectReply, type LoginScanReply, type PlatformAccount, type PublishResultReply, type TaskInfo } from '@inkstone/shared';
import { describeNeeding, openFreshPostgres } from './test/database.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin } from './test/standins/openai-compatible.js';
import { loginOn, runScript, startServer, type ServerProc } from './test/process.js';
import { confirmOnPhone } from './test/publish-helpers.js';

/**
 * Scale-out as deployed: two web processes (A, B), a worker and a publisher, each a real `node main.ts` process, on
 * one fresh PostgreSQL database and one Redis (a prefix of its own). Nothing is sticky: every step starts on one
 * web process and is checked on the other. Waits are for states (with deadlines), never sleeps standing in for
 * assertions. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (`npm test` sets both); reported as skipped
 * otherwise.
 */

const ARTICLE_PROMPT = '写一篇关于城市骑行通勤的短文';
const isArticle = (b: ChatRequestBody) => b.messages.at(-1)!.content.includes(ARTICLE_PROMPT);
/** Anonymous calls allowed per address per minute, shared by A and B through Redis. */
const ANON_LIMIT = 40;

let phoneN = 0;
const phone = () => `139${String(process.pid % 1e4).padStart(4, '0')}${String(++phoneN).padStart(4, '0')}`;

/** One call over HTTP; `/publish-api/...` as given, anything else under `/api`. */
async function call<T>(
  base: string,
  method: string,
  p: string,
  o: { token?: string; body?: unknown; query?: Record<string, string | number>; headers?: Record<string, string> } = {},
): Promise<Envelope<T>> {
  const u = new URL(`${base}${p.startsWith('/publish-api') ? '' : '/api'}${p}`);
  for (const [k, v] of Object.entries(o.query ?? {})) u.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers[TOKEN_NAME] = o.token;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(u, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  return (await res.json()) as Envelope<T>;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs: number, stepMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

interface SseEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    const id = lines.find((l) => l.startsWith('id: '));
    const type = lines.find((l) => l.startsWith('event: '));
    const data = lines.find((l) => l.startsWith('data: '));
    if (id && type && data) out.push({ id: Number(id.slice(4)), type: type.slice(7), data: JSON.parse(data.slice(6)) as Record<string, unknown> });
  }
  return out;
}

/** Reads a task's event stream until `enough` says so (then hangs up) or the stream ends. */
async function readStream(base: string, token: string, taskId: string, lastEventId: number | null, enough: (events: SseEvent[]) => boolean = () => false): Promise<SseEvent[]> {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { [TOKEN_NAME]: token };
  if (lastEventId !== null) headers['last-event-id'] = String(lastEventId);
  const res = await fetch(`${base}/api/mp/task/stream/${taskId}`, { headers, signal: ctrl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // Only whole events count: the text up to the last blank line.
      if (enough(parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)))) break;
    }
  } finally {
    ctrl.abort();
  }
  return parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
}

const taskInfo = async (base: string, token: string, taskId: string) => (await call<TaskInfo>(base, 'GET', '/mp/task/info', { token, query: { taskId } })).data;
const createTask = async (base: string, token: string) => {
  const r = await call<{ taskId: string }>(base, 'POST', '/mp/task/create', {
    token,
    body: { createType: 'article', writeType: 'quick', content: ARTICLE_PROMPT, modelConfigType: 'standin' },
  });
  if (r.code !== 0) throw new Error(`task create: ${r.code} ${r.msg}`);
  return r.data.taskId;
};
const bubble = async (base: string, token: string) => (await call<{ unreadNoticeNum: number }>(base, 'GET', '/notice/bubble', { token })).data.unreadNoticeNum;
const sandboxNotes = async (base: string) => ((await (await fetch(`${base}/sandbox-platform/api/_notes`)).json()) as { data: { notes: Array<{ title: string }> } }).data.notes;

describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], 'scale-out: two web processes, a worker and a publisher on PostgreSQL + Redis', (pgUrl, redisUrl) => {
  let standin: OpenAiStandin;
  let dropDb: () => Promise<void>;
  let env: Record<string, string>;
  let a: ServerProc;
  let b: ServerProc;
  let worker: ServerProc;
  let publisher: ServerProc;
  const extra: ServerProc[] = [];
  let token: string;
  let account: PlatformAccount | undefined;
  /** Article replies are slow (the task is mid-flight for a while) until a test says otherwise. */
  let articleDelayMs = 60;

  const start = (roles: string, more: Record<string, string> = {}) =>
    startServer({ ...env, ROLES: roles, DATA_DIR: mkdtempSync(path.join(tmpdir(), `inkstone-${roles}-`)), ...more });

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    standin.respond = (body) =>
      isArticle(body)
        ? { content: '骑行让通勤更健康，也更省钱。'.repeat(60), chunkChars: 4, delayMs: articleDelayMs }
        : { content: '骑行通勤的三个理由\n早高峰换个方式\n一辆车的自由', chunkChars: 8 };
    const db = await openFreshPostgres(pgUrl, 'so');
    // Migrated here once, so four processes starting together find the schema in place.
    dropDb = () => db.close();
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `so${randomBytes(4).toString('hex')}`,
      LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
      LLM_DEFAULT_MODEL: 'standin',
      LLM_RETRY_BASE_MS: '1',
      PUBLISH_PLATFORMS: 'sandbox',
      PUBLISH_RETRY_BACKOFF_MS: '300',
      PUBLISH_ENGAGEMENT_INTERVAL_MS: '3600000',
      TRUST_PROXY: 'true',
      RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT),
      WELCOME_POINTS: '1000',
    };
    a = await start('web');
    // Links and the publisher's browser go to A's sandbox creator site (its state lives in that process).
    env.PUBLIC_URL = a.url;
    env.SANDBOX_PLATFORM_URL = a.url;
    [b, worker, publisher] = await Promise.all([start('web'), start('worker'), start('publisher', { BROWSER_MAX_CONTEXTS: '1' })]);
    token = await loginOn(a.url, phone());
  }, 180_000);

  afterAll(async () => {
    for (const p of [a, b, worker, publisher, ...extra]) {
      if (p && p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }
    await standin?.close();
    await dropDb?.();
  }, 60_000);

  it('each process answers /readyz with its roles; only web processes serve the API', async () => {
    for (const [p, roles] of [
      [a, ['web']],
      [worker, ['worker']],
      [publisher, ['publisher']],
    ] as const) {
      const r = await fetch(`${p.url}/readyz`);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ status: 'ready', database: 'ok', redis: 'ok', roles });
    }
    expect((await call(worker.url, 'GET', '/vip/subscribe/category')).code).toBe(ErrorCode.NOT_FOUND);
    expect((await call(publisher.url, 'GET', '/vip/subscribe/category')).code).toBe(ErrorCode.NOT_FOUND);
    expect((await call(b.url, 'GET', '/vip/subscribe/category')).code).toBe(0);
  });

  it('rate limits are shared: one address gets ANON_LIMIT calls a minute across A and B together', async () => {
    const headers = { 'x-forwarded-for': `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}` };
    const codes: number[] = [];
    for (let i = 0; i < ANON_LIMIT / 2 + 5; i++) codes.push((await call(a.url, 'GET', '/vip/subscribe/category', { headers })).code);
    for (let i = 0; i < ANON_LIMIT / 2 + 5; i++) codes.push((await call(b.url, 'GET', '/vip/subscribe/category', { headers })).code);
    expect(codes.filter((c) => c === 0)).toHaveLength(ANON_LIMIT);
    // B refuses the calls that go over the limit A used most of: the bucket is in Redis, not per process.
    expect(codes.slice(-10).every((c) => c === ErrorCode.RATE_LIMITED)).toBe(true);
  });

  it('a session revoked on A is refused on B within 100 ms (B had just served it)', async () => {
    const t = await loginOn(a.url, phone());
    // B has seen the session (any per-process session cache holds it now).
    expect((await call(b.url, 'GET', '/auth/nowLoginUser', { token: t })).code).toBe(0);
    expect((await call(b.url, 'GET', '/auth/nowLoginUser', { token: t })).code).toBe(0);
    const out = await call(a.url, 'GET', '/auth/logout', { token: t });
    expect(out.code).toBe(0);
    const revokedAt = Date.now();
    const refused = await waitFor(
      'B to refuse the revoked session',
      async () => {
        const r = await call(b.url, 'GET', '/auth/nowLoginUser', { token: t });
        return r.code !== 0 ? r : null;
      },
      100,
      5,
    );
    expect([ErrorCode.NOT_LOGGED_IN, ErrorCode.SESSION_REVOKED]).toContain(refused.code);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(100);
  });

  it("a notice published by the admin CLI moves B's bubble; reading it on A moves B's bubble back", async () => {
    const t = await loginOn(a.url, phone());
    const before = await bubble(b.url, t);
    const cli = runScript('admin.ts', ['notice:publish', '--title', '扩容公告', '--content', '多进程部署上线'], {
      ...env,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkstone-cli-')),
    });
    const exit = await cli.exited;
    expect(exit.code, cli.output()).toBe(0);
    await waitFor("B's bubble to count the new notice", async () => (await bubble(b.url, t)) === before + 1, 1_000, 20);
    const list = await call<{ records: Array<{ id: number; title: string }> }>(a.url, 'GET', '/notice/v2/list', { token: t, query: { pageNum: 1, pageSize: 10 } });
    const notice = list.data.records.find((n) => n.title === '扩容公告')!;
    expect((await call(a.url, 'POST', '/notice/read', { token: t, query: { id: notice.id } })).code).toBe(0);
    await waitFor("B's bubble to drop the read notice", async () => (await bubble(b.url, t)) === before, 1_000, 20);
  });

  it('a platform QR login started on A completes through B (the publisher holds the page, no sticky sessions)', async () => {
    const conn = await call<LoginConnectReply>(a.url, 'POST', '/publish-api/chrome/login/connect', { token, body: { platform: 'sandbox' } });
    expect(conn.code, `${conn.msg}\n${a.output().slice(-3000)}\n${publisher.output().slice(-3000)}`).toBe(0);
    expect(conn.data.qrImage).toMatch(/^data:image\/png;base64,/);
    const q = { connectionId: conn.data.connectionId };
    const scan = await call<LoginScanReply>(b.url, 'GET', '/publish-api/chrome/login/code/scan', { token, query: q });
    expect(scan.data.scanState).toBe('waiting');
    // The phone opens the QR's page on the sandbox site the publisher's browser is on.
    await confirmOnPhone(new URL(scan.data.scanUrl!, a.url).toString(), '扩容账号');
    await waitFor(
      'B to report the login confirmed',
      async () => (await call<LoginScanReply>(b.url, 'GET', '/publish-api/chrome/login/code/scan', { token, query: q })).data.scanState === 'confirmed',
      30_000,
      200,
    );
    const cookie = await call(b.url, 'GET', '/publish-api/chrome/login/cookie', { token, query: q });
    expect(cookie.code, cookie.msg).toBe(0);
    const bound = await call<PlatformAccount>(b.url, 'POST', '/publish/v4/account/bind', { token, body: q });
    expect(bound.code, bound.msg).toBe(0);
    expect(bound.data).toMatchObject({ accountName: '扩容账号', status: 'active' });
    account = bound.data;
    const list = await call<{ total: number }>(a.url, 'GET', '/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 20 } });
    expect(list.data.total).toBe(1);
  });

  it('a writing task created through A streams from B, and B resumes the stream from Last-Event-ID', async () => {
    const taskId = await createTask(a.url, token);
    // Hang up after a few pieces of text, mid-flight.
    const first = await readStream(b.url, token, taskId, null, (ev) => ev.filter((e) => e.type === 'delta').length >= 3);
    expect(first.filter((e) => e.type === 'delta').length).toBeGreaterThanOrEqual(3);
    expect(first.some((e) => e.type === 'done')).toBe(false);
    const lastId = first.at(-1)!.id;
    const rest = await readStream(b.url, token, taskId, lastId);
    expect(rest[0]!.id).toBeGreaterThan(lastId);
    expect(rest.at(-1)!.type).toBe('done');
    // Nothing lost, nothing twice: the two halves are exactly the whole stream as A serves it afterwards.
    const whole = await readStream(a.url, token, taskId, 0);
    expect([...first, ...rest]).toEqual(whole);
    const info = await taskInfo(a.url, token, taskId);
    expect(info.status).toBe('succeeded');
    expect(
      whole
        .filter((e) => e.type === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('骑行让通勤更健康');
  });

  it('kill -9 of the worker mid-task: a second worker finishes or resumes the task within 15 s', async () => {
    // A second per piece: the first worker cannot finish before it is killed, however long the second takes to start.
    articleDelayMs = 1_000;
    const taskId = await createTask(b.url, token);
    await waitFor('text from the first worker', async () => (await taskInfo(a.url, token, taskId)).text.length > 0, 60_000, 200);
    // The second worker comes up while the first is still writing (the article would take minutes at this pace).
    const second = await start('worker');
    extra.push(second);
    expect((await taskInfo(a.url, token, taskId)).status).toBe('running');
    articleDelayMs = 5;
    const asked = standin.received.length;
    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    await worker.exited;
    await waitFor(
      'the task resumed by the second worker, or final',
      async () => {
        const info = await taskInfo(b.url, token, taskId);
        return info.status === 'succeeded' || info.status === 'failed' || standin.received.slice(asked).some(isArticle);
      },
      15_000,
      100,
    );
    expect(Date.now() - killedAt).toBeLessThanOrEqual(15_000);
    const final = await waitFor(
      'the task to finish',
      async () => {
        const info = await taskInfo(b.url, token, taskId);
        return info.status === 'succeeded' || info.status === 'failed' ? info : null;
      },
      60_000,
      200,
    );
    expect(final.status).toBe('succeeded');
  });

  it('two publishers never post one note twice (the second starts while the first is mid-publish)', async () => {
    expect(account, 'the QR login test bound an account').toBeDefined();
    const control = (slowMs: number) =>
      fetch(`${a.url}/sandbox-platform/api/_control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ slowMs }) });
    await control(1_500);
    const titles = ['扩容一号', '扩容二号', '扩容三号'];
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const ids: string[] = [];
    for (const title of titles) {
      const r = await call<{ publishId: string }>(titles.indexOf(title) % 2 ? b.url : a.url, 'POST', '/publish-api/publish/article', {
        token,
        body: { accountIds: [account!.id], content: { title, body: `<p>${title}的正文</p>`, images: [png], topics: [] } },
      });
      expect(r.code, r.msg).toBe(0);
      ids.push(r.data.publishId);
    }
    const result = (id: string) => call<PublishResultReply>(b.url, 'GET', '/publish-api/publish/result', { token, query: { publishId: id } }).then((r) => r.data);
    await waitFor('the first publisher to be mid-publish', async () => (await Promise.all(ids.map(result))).some((r) => r.jobs.some((j) => j.status === 'running')), 30_000, 100);
    const second = await start('publisher', { BROWSER_MAX_CONTEXTS: '1' });
    extra.push(second);
    await control(0);
    const done = await waitFor(
      'every note published',
      async () => {
        const all = await Promise.all(ids.map(result));
        return all.every((r) => r.jobs.every((j) => j.status === 'succeeded' || j.status === 'failed')) ? all : null;
      },
      90_000,
      250,
    );
    expect(done.flatMap((r) => r.jobs.map((j) => j.status))).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const notes = await sandboxNotes(a.url);
    for (const title of titles)
      expect(
        notes.filter((n) => n.title === title),
        title,
      ).toHaveLength(1);
  });
});
