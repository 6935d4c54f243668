import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { lazyChildLogger, POLLED_ROUTES, redactPaths, redactUrl } from './logger.js';
import { startTestApp, type TestApp } from './test/app.js';
import { loginByPhone } from './test/auth-helpers.js';
import { describeOnDatabases } from './test/database.js';

/** Collects every log line the app writes. */
function memoryLog() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(line) },
    records: () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url?: string; method?: string } }),
  };
}

/** The completed line of a request is written when the response finishes, which may be just after the client has it. */
async function settle() {
  await new Promise((r) => setTimeout(r, 50));
}

describe('redactUrl', () => {
  it('masks credential-like query values and keeps everything else byte for byte', () => {
    expect(redactUrl('/api/mp/task/stream/t1?token=abc&lastEventId=3')).toBe('/api/mp/task/stream/t1?token=[REDACTED]&lastEventId=3');
    expect(redactUrl('/x?ticket=a&code=1234&sign=s&access_token=t&api_key=k&client_secret=c&password=p&phone=13900000000&q=%E4%B8%AD+%20')).toBe(
      '/x?ticket=[REDACTED]&code=[REDACTED]&sign=[REDACTED]&access_token=[REDACTED]&api_key=[REDACTED]&client_secret=[REDACTED]&password=[REDACTED]&phone=[REDACTED]&q=%E4%B8%AD+%20',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[REDACTED]');
    expect(redactUrl('/x?a=1&token')).toBe('/x?a=1&token');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});

describe('lazyChildLogger', () => {
  it('makes the child only for a line at an enabled level, with its bindings and redaction', () => {
    const log = memoryLog();
    const parent = pino({ level: 'info', redact: { paths: redactPaths, censor: '[REDACTED]' } }, log.stream);
    let made = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...a: Parameters<typeof child>) => (made++, child(...a))) as typeof parent.child;
    const lazy = lazyChildLogger(parent, { reqId: 'r1' }, {});
    lazy.debug({ token: 'secret' }, 'quiet');
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    expect(made).toBe(0);
    lazy.info({ token: 'secret' }, 'loud');
    lazy.warn('again');
    expect(made).toBe(1);
    const lines = log.lines.map((l) => JSON.parse(l) as { reqId: string; msg: string; token?: string });
    expect(lines.map((l) => [l.reqId, l.msg, l.token])).toEqual([
      ['r1', 'loud', '[REDACTED]'],
      ['r1', 'again', undefined],
    ]);
    // A route's own level (Fastify's logLevel) decides, not the parent's.
    const verbose = lazyChildLogger(parent, { reqId: 'r2' }, { level: 'debug' });
    verbose.debug('shown');
    expect(log.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain('shown');
  });
});

describeOnDatabases('request log on %s', (dbKind) => {
  const log = memoryLog();
  let t: TestApp;
  let user: Awaited<ReturnType<typeof loginByPhone>>;

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { LOG_LEVEL: 'info' }, logStream: log.stream });
    user = await loginByPhone(t);
    await t.container.services.points.grant(user.user.id, 100, { reason: 'test', idempotencyKey: `log-test:${user.user.id}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never writes a session token, stream ticket or secret header, even when a client puts one in the URL', async () => {
    const { data } = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一段关于秋天银杏的短文。' },
    });
    await t.container.jobs.idle();
    await (await fetch(`${t.url}/api/mp/task/stream/${data.taskId}?token=${user.tokenValue}`)).text();
    const ticket = await t.call<{ ticket: string }>('POST', '/mp/task/stream/ticket', { token: user.tokenValue, body: { taskId: data.taskId } });
    const stream = await fetch(`${t.url}/api/mp/task/stream/${data.taskId}?ticket=${ticket.data.ticket}`, {
      headers: { authorization: 'Bearer sekrit-bearer', cookie: 'sid=sekrit-cookie' },
    });
    expect(await stream.text()).toContain('event: done');
    await settle();

    const all = log.lines.join('');
    expect(all).toContain(`/api/mp/task/stream/${data.taskId}?token=[REDACTED]`);
    expect(all).toContain(`/api/mp/task/stream/${data.taskId}?ticket=[REDACTED]`);
    for (const secret of [user.tokenValue, ticket.data.ticket, 'sekrit-bearer', 'sekrit-cookie']) expect(all).not.toContain(secret);
  });

  it('one info line per ordinary request; polled routes only at debug', async () => {
    // The quiet list names real routes (a renamed route would silently start logging every poll again).
    for (const url of POLLED_ROUTES) expect(t.app.hasRoute({ method: 'GET', url }), url).toBe(true);
    const before = log.lines.length;
    await t.call('GET', '/auth/isLogin', { token: user.tokenValue });
    await t.call('GET', '/notice/bubble', { token: user.tokenValue });
    await fetch(`${t.url}/healthz`);
    await t.call('GET', '/user/setting/list', { token: user.tokenValue });
    await settle();
    const records = log.records().slice(before);
    const urls = records.filter((r) => r.msg === 'request completed').map((r) => r.req?.url);
    expect(urls).toEqual(['/api/user/setting/list']);
    expect(records.filter((r) => r.msg === 'incoming request')).toEqual([]);

    // At debug the polls are there for whoever needs them.
    t.app.log.level = 'debug';
    try {
      const mark = log.lines.length;
      await t.call('GET', '/notice/bubble', { token: user.tokenValue });
      await settle();
      const completed = log
        .records()
        .slice(mark)
        .filter((r) => r.msg === 'request completed');
      expect(completed.map((r) => [r.level, r.req?.url])).toEqual([[20, '/api/notice/bubble']]);
    } finally {
      t.app.log.level = 'info';
    }
  });
});
