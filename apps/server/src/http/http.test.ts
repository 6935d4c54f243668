import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { describeNeeding, describeOnDatabases } from '../test/database.js';
import { loadConfig, ConfigError } from '../config.js';

describeOnDatabases('HTTP layer on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves /healthz with the database kind', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: dbKind });
  });

  it('answers unknown API paths with an envelope, HTTP 200', async () => {
    const res = await t.call('GET', '/no/such/thing');
    expect(res.status).toBe(200);
    expect(res).toMatchObject({ code: ErrorCode.NOT_FOUND, data: null });
    expect(res.msg).toBe('接口不存在');
  });

  it('answers malformed JSON with a clear validation error', async () => {
    const res = await t.call('POST', '/auth/doLogin0', { rawBody: '{"phone": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.msg).toBe('请求体不是有效的JSON');
  });

  it('treats an empty JSON body as no body, and still rejects prototype pollution', async () => {
    const user = await loginByPhone(t);
    const res = await t.call('POST', '/auth/spark/token', { token: user.tokenValue, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.code).toBe(0);
    const poisoned = await t.call('POST', '/auth/doLogin0', {
      rawBody: '{"__proto__": {"x": 1}, "phone": "13800138000", "code": "123456"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(poisoned.code).toBe(ErrorCode.VALIDATION);
  });

  it('rejects oversized bodies before parsing them', async () => {
    const res = await t.call('POST', '/auth/doLogin0', {
      rawBody: JSON.stringify({ phone: '13800138000', code: '123456', pad: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('sets security headers and echoes a request id', async () => {
    const res = await fetch(`${t.url}/api/auth/isLogin`, { headers: { 'x-request-id': 'req-abcdef123' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // A JSON reply is never a document: nothing may load in it, no other site may frame or read it.
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'self'");
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // Rate-limit headers only go out with a refusal.
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(res.headers.get('x-request-id')).toBe('req-abcdef123');
    // An HTML page under /api (the sandbox SMS outbox) and the web app keep the page set.
    for (const page of ['/api/dev/sms-outbox/page', '/']) {
      const doc = await fetch(`${t.url}${page}`);
      expect(doc.headers.get('content-type'), page).toMatch(/^text\/html/);
      expect(doc.headers.get('content-security-policy'), page).toContain("default-src 'self'");
      expect(doc.headers.get('x-frame-options'), page).toBe('SAMEORIGIN');
    }
    const other = await fetch(`${t.url}/api/auth/isLogin`);
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes the OpenAPI document generated from the shared schemas', async () => {
    const res = await fetch(`${t.url}/api/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/doLogin0', '/api/auth/send/msg', '/api/user/fill/info', '/api/wx/qrcode/url']));
    const body = doc.paths['/api/auth/doLogin0']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['phone', 'code', 'channelId', 'invitationCode']));
    const ui = await fetch(`${t.url}/api/docs`, { redirect: 'follow' });
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });
});

describe('unexpected failures', () => {
  it('answer 999 with the generic message and leak nothing', async () => {
    const t = await startTestApp();
    const user = await loginByPhone(t);
    await t.container.database.close();
    const res = await t.call('GET', '/auth/nowLoginUser', { token: user.tokenValue });
    expect(res.status).toBe(200);
    expect(res.code).toBe(ErrorCode.SERVER_ERROR);
    expect(res.msg).toBe('服务器开小差中，请稍后再试');
    expect(res.data).toBeNull();
    expect(JSON.stringify(res)).not.toMatch(/pglite|sql|stack|Error/i);
    await t.app.close();
  });
});

describe('config', () => {
  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ APP_SECRET_KEY: 'short' })).toThrow(/APP_SECRET_KEY/);
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(/ALIYUN_SMS_ACCESS_KEY_ID/);
    expect(() => loadConfig({ WECHAT_LOGIN_PROVIDER: 'mp' })).toThrow(/WECHAT_MP_APP_ID/);
  });

  it('has embedded defaults that need nothing set', () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({ PORT: 3000, DATA_DIR: './data', SMS_PROVIDER: 'outbox', WECHAT_LOGIN_PROVIDER: 'sandbox' });
    expect(cfg.DATABASE_URL).toBeUndefined();
  });
});

/** With REDIS_URL set, rate limits are shared: two processes see one budget per client address. */
describeNeeding(['TEST_REDIS_URL'], 'rate limits shared through Redis', (redisUrl) => {
  it('counts requests from one address across two app instances', async () => {
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_ANON_PER_MINUTE: '6' };
    const a = await startTestApp({ env });
    const b = await startTestApp({ env });
    try {
      const ip = `172.31.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await a.call('GET', '/user/global-setting', { ip })).code);
      for (let i = 0; i < 4; i++) codes.push((await b.call('GET', '/user/global-setting', { ip })).code);
      expect(codes.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(codes.slice(6)).toEqual([ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]);
    } finally {
      await a.close();
      await b.close();
    }
    // Two full app start-ups (migrations included) before the eight calls.
  }, 180_000);
});
