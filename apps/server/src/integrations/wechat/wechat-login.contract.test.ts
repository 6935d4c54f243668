import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { LoginResult } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { latestCode, nextPhone } from '../../test/auth-helpers.js';
import { startWechatMpStandin, type WechatMpStandin } from '../../test/standins/wechat-mp.js';
import { MpWechatLogin } from './mp.js';
import { wechatMpEventRoutes } from './mp.routes.js';
import { sandboxOpenid } from './sandbox.js';
import { WechatApiError } from './types.js';

const MP = { appId: 'wx5tand1nappid0001', appSecret: 'standin-app-secret-0123456789abcdef', token: 'standinPushToken2024' };

interface Qr {
  scene: string;
  url: string;
  expireSeconds: number;
  sandbox: boolean;
}
interface ScanState {
  status: 'waiting' | 'scanned' | 'expired' | 'used';
  openid: string | null;
}

/** What differs between implementations: how a phone "scans" and what the QR image looks like. */
interface Harness {
  t: TestApp;
  sandbox: boolean;
  /** A fresh WeChat identity; `openid` is what the event push will name. */
  newIdentity(): { identity: string; openid: string };
  scan(scene: string, identity: string): Promise<void>;
  checkImage(qr: Qr): Promise<void>;
  close(): Promise<void>;
}

const cases: Array<{ name: 'sandbox' | 'mp'; start(): Promise<Harness> }> = [
  {
    name: 'sandbox',
    async start() {
      const t = await startTestApp();
      return {
        t,
        sandbox: true,
        newIdentity() {
          const identity = `测试用户${randomBytes(4).toString('hex')}`;
          return { identity, openid: sandboxOpenid(identity) };
        },
        async scan(scene, identity) {
          const res = await fetch(`${t.url}/api/dev/wx-sandbox/scan`, {
            method: 'POST',
            headers: { 'x-forwarded-for': nextIp() },
            body: new URLSearchParams({ scene, identity }),
          });
          expect(res.status).toBe(200);
          expect(await res.text()).toContain('已确认登录');
        },
        async checkImage(qr) {
          expect(qr.url).toMatch(/^data:image\/png;base64,/);
        },
        close: () => t.close(),
      };
    },
  },
  {
    name: 'mp',
    async start() {
      const standin = await startWechatMpStandin(MP);
      const t = await startTestApp({ env: mpEnv(standin) });
      return {
        t,
        sandbox: false,
        newIdentity() {
          const openid = `oStd_${randomBytes(10).toString('base64url')}`;
          return { identity: openid, openid };
        },
        async scan(scene, identity) {
          const res = await standin.scan({ scene, openid: identity, following: false, callbackUrl: `${t.url}/api/wx/mp/event` });
          expect(res).toEqual({ status: 200, body: 'success' });
        },
        async checkImage(qr) {
          const issued = standin.qrcodes.find((q) => q.scene === qr.scene);
          expect(issued).toBeDefined();
          expect(qr.url).toBe(`${standin.url}/cgi-bin/showqrcode?ticket=${encodeURIComponent(issued!.ticket)}`);
          const img = await fetch(qr.url);
          expect(img.status).toBe(200);
        },
        async close() {
          await t.close();
          await standin.close();
        },
      };
    },
  },
];

function mpEnv(standin: WechatMpStandin): Record<string, string> {
  return {
    WECHAT_LOGIN_PROVIDER: 'mp',
    WECHAT_MP_APP_ID: MP.appId,
    WECHAT_MP_APP_SECRET: MP.appSecret,
    WECHAT_MP_TOKEN: MP.token,
    WECHAT_API_BASE: standin.url,
    WECHAT_QR_IMAGE_BASE: `${standin.url}/cgi-bin/showqrcode`,
  };
}

const newQr = async (t: TestApp) => {
  const res = await t.call<Qr>('GET', '/wx/qrcode/url', { ip: nextIp() });
  expect(res.code, res.msg).toBe(0);
  return res.data;
};
const poll = async (t: TestApp, scene: string) => {
  const res = await t.call<ScanState>('GET', '/wx/qrcode/openid', { query: { scene } });
  expect(res.code, res.msg).toBe(0);
  return res.data;
};
const loginWx = (t: TestApp, body: { scene: string; phone?: string; code?: string }) => t.call<LoginResult>('POST', '/auth/v2/doLoginWx', { body, ip: nextIp() });
async function smsCode(t: TestApp, phone: string) {
  const sent = await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
  expect(sent.code, sent.msg).toBe(0);
  return latestCode(t, phone);
}

describe.each(cases)('WeChat QR login contract: $name', ({ start }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('issues a QR for a fresh scene that is waiting and cannot log in yet', async () => {
    const qr = await newQr(h.t);
    expect(qr.scene).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(qr.sandbox).toBe(h.sandbox);
    expect(qr.expireSeconds).toBeGreaterThan(0);
    await h.checkImage(qr);
    expect(await poll(h.t, qr.scene)).toEqual({ status: 'waiting', openid: null });
    expect((await loginWx(h.t, { scene: qr.scene })).code).toBe(1202);
  });

  it('gives every QR its own scene', async () => {
    const [a, b] = await Promise.all([newQr(h.t), newQr(h.t)]);
    expect(a!.scene).not.toBe(b!.scene);
  });

  it('binds an unknown identity to a phone once, then logs it straight in', async () => {
    const { identity, openid } = h.newIdentity();
    const qr = await newQr(h.t);
    await h.scan(qr.scene, identity);
    expect(await poll(h.t, qr.scene)).toEqual({ status: 'scanned', openid });

    expect((await loginWx(h.t, { scene: qr.scene })).code).toBe(1203);

    const phone = nextPhone();
    const code = await smsCode(h.t, phone);
    const first = await loginWx(h.t, { scene: qr.scene, phone, code });
    expect(first.code, first.msg).toBe(0);
    expect(first.data.tokenValue).toEqual(expect.any(String));
    expect(first.data.tokenValue.length).toBeGreaterThan(0);

    const again = await loginWx(h.t, { scene: qr.scene });
    expect(again.code).toBe(1201);
    expect((await poll(h.t, qr.scene)).status).toBe('used');

    const qr2 = await newQr(h.t);
    await h.scan(qr2.scene, identity);
    const second = await loginWx(h.t, { scene: qr2.scene });
    expect(second.code, second.msg).toBe(0);
    expect(second.data.user.id).toBe(first.data.user.id);
    expect(second.data.tokenValue).not.toBe(first.data.tokenValue);
  });

  it('keeps the first scan of a scene', async () => {
    const a = h.newIdentity();
    const b = h.newIdentity();
    const qr = await newQr(h.t);
    await h.scan(qr.scene, a.identity);
    if (h.sandbox) {
      const res = await fetch(`${h.t.url}/api/dev/wx-sandbox/scan`, { method: 'POST', body: new URLSearchParams({ scene: qr.scene, identity: b.identity }) });
      expect(await res.text()).toContain('二维码已失效');
    } else {
      await h.scan(qr.scene, b.identity);
    }
    expect(await poll(h.t, qr.scene)).toEqual({ status: 'scanned', openid: a.openid });
  });
});

describe('WeChat Official Account (mp) specifics', () => {
  let standin: WechatMpStandin;
  let t: TestApp;
  let callbackUrl: string;

  beforeAll(async () => {
    standin = await startWechatMpStandin(MP);
    t = await startTestApp({ env: mpEnv(standin) });
    callbackUrl = `${t.url}/api/wx/mp/event`;
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  const newOpenid = () => `oStd_${randomBytes(10).toString('base64url')}`;

  it('keeps the push endpoint out of the API docs, which still build', async () => {
    const res = await fetch(`${t.url}/api/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/wx/qrcode/url');
    expect(Object.keys(doc.paths).some((p) => p.includes('/wx/mp/'))).toBe(false);
  });

  describe('server URL check', () => {
    it('echoes echostr when the signature is right', async () => {
      const res = await standin.verifyUrl({ callbackUrl, echostr: '8145375249081629530' });
      expect(res.status).toBe(200);
      expect(res.body).toBe('8145375249081629530');
      expect(res.contentType).toMatch(/^text\/plain/);
    });

    it('refuses a bad signature', async () => {
      const res = await standin.verifyUrl({ callbackUrl, echostr: 'hello', badSignature: true });
      expect(res).toMatchObject({ status: 403, body: 'invalid signature' });
    });

    it('refuses a request with the signature parameters missing or repeated', async () => {
      const missing = await fetch(`${callbackUrl}?echostr=hello`);
      expect(missing.status).toBe(403);
      expect(await missing.text()).toBe('invalid signature');
      const repeated = await fetch(`${callbackUrl}?signature=a&signature=b&timestamp=1&nonce=2&echostr=hello`);
      expect(repeated.status).toBe(403);
    });
  });

  describe('event push', () => {
    it('ignores a forged event and keeps the scene usable', async () => {
      const qr = await newQr(t);
      const openid = newOpenid();
      const forged = await standin.scan({ scene: qr.scene, openid, following: false, callbackUrl, badSignature: true });
      expect(forged).toEqual({ status: 403, body: 'invalid signature' });
      expect(await poll(t, qr.scene)).toEqual({ status: 'waiting', openid: null });

      expect(await standin.scan({ scene: qr.scene, openid, following: false, callbackUrl })).toEqual({ status: 200, body: 'success' });
      expect(await poll(t, qr.scene)).toEqual({ status: 'scanned', openid });
    });

    it.each([-600, 600])('refuses an event whose timestamp is %i s off', async (offset) => {
      const qr = await newQr(t);
      const res = await standin.scan({ scene: qr.scene, openid: newOpenid(), following: false, callbackUrl, timestampOffsetSec: offset });
      expect(res.status).toBe(403);
      expect(await poll(t, qr.scene)).toEqual({ status: 'waiting', openid: null });
    });

    it('accepts a slightly skewed clock', async () => {
      const qr = await newQr(t);
      const openid = newOpenid();
      const res = await standin.scan({ scene: qr.scene, openid, following: false, callbackUrl, timestampOffsetSec: -120 });
      expect(res).toEqual({ status: 200, body: 'success' });
      expect(await poll(t, qr.scene)).toEqual({ status: 'scanned', openid });
    });

    it('logs in a user who already follows the account (SCAN event)', async () => {
      const openid = newOpenid();
      const qr = await newQr(t);
      expect(await standin.scan({ scene: qr.scene, openid, following: true, callbackUrl })).toEqual({ status: 200, body: 'success' });
      expect(await poll(t, qr.scene)).toEqual({ status: 'scanned', openid });
      const phone = nextPhone();
      const code = await smsCode(t, phone);
      const first = await loginWx(t, { scene: qr.scene, phone, code });
      expect(first.code, first.msg).toBe(0);

      const qr2 = await newQr(t);
      await standin.scan({ scene: qr2.scene, openid, following: true, callbackUrl });
      const second = await loginWx(t, { scene: qr2.scene });
      expect(second.code, second.msg).toBe(0);
      expect(second.data.user.id).toBe(first.data.user.id);
    });

    it('accepts application/xml as well', async () => {
      const qr = await newQr(t);
      const openid = newOpenid();
      const xml = `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[${qr.scene}]]></EventKey><Ticket><![CDATA[T]]></Ticket></xml>`;
      const res = await standin.push({ callbackUrl, xml, openid, contentType: 'application/xml; charset=utf-8' });
      expect(res).toEqual({ status: 200, body: 'success' });
      expect(await poll(t, qr.scene)).toEqual({ status: 'scanned', openid });
    });

    it.each([
      [
        'a text message',
        `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[oText]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[你好]]></Content><MsgId>1234567890123456</MsgId></xml>`,
      ],
      [
        'an unsubscribe',
        `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[oUnsub]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[unsubscribe]]></Event><EventKey><![CDATA[]]></EventKey></xml>`,
      ],
      [
        'a plain follow without a QR',
        `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[oFollow]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event><EventKey><![CDATA[]]></EventKey></xml>`,
      ],
      [
        'a scan of an unknown scene',
        `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[oUnknown]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[noSuchScene123]]></EventKey></xml>`,
      ],
      ['a body that is not XML', `this is <not xml`],
    ])('answers success to %s', async (_label, xml) => {
      expect(await standin.push({ callbackUrl, xml })).toEqual({ status: 200, body: 'success' });
    });

    it('refuses an unsigned event whatever the body says', async () => {
      const qr = await newQr(t);
      const res = await fetch(`${callbackUrl}?openid=oX`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: `<xml><FromUserName><![CDATA[oX]]></FromUserName><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[${qr.scene}]]></EventKey></xml>`,
      });
      expect(res.status).toBe(403);
      expect(await poll(t, qr.scene)).toEqual({ status: 'waiting', openid: null });
    });
  });

  describe('access token', () => {
    it('refreshes a token WeChat no longer accepts and still creates the QR', async () => {
      await newQr(t);
      const before = standin.tokensIssued;
      standin.expireToken();
      const qr = await newQr(t);
      expect(standin.tokensIssued).toBe(before + 1);
      const issued = standin.qrcodes.at(-1)!;
      expect(issued.scene).toBe(qr.scene);
      expect(qr.url).toContain(encodeURIComponent(issued.ticket));
      // The refreshed token is cached again.
      await newQr(t);
      expect(standin.tokensIssued).toBe(before + 1);
    });

    it('fetches the token once for concurrent QR requests', async () => {
      const login = new MpWechatLogin({ appId: MP.appId, appSecret: MP.appSecret, apiBase: standin.url, qrImageBase: `${standin.url}/cgi-bin/showqrcode` });
      const before = standin.tokenRequests;
      const qrs = await Promise.all(Array.from({ length: 8 }, (_, i) => login.createQr(`concurrent_scene_${i}`, 600)));
      expect(standin.tokenRequests).toBe(before + 1);
      expect(new Set(qrs.map((q) => q.imageUrl)).size).toBe(8);
      expect(qrs.every((q) => q.expireSeconds === 600)).toBe(true);
    });

    it('shares one forced refresh among concurrent calls that hit an invalidated token', async () => {
      const login = new MpWechatLogin({ appId: MP.appId, appSecret: MP.appSecret, apiBase: standin.url, qrImageBase: `${standin.url}/cgi-bin/showqrcode` });
      await login.createQr('warm_up_scene', 600);
      standin.expireToken();
      const before = standin.tokenRequests;
      await Promise.all(Array.from({ length: 6 }, (_, i) => login.createQr(`after_expiry_${i}`, 600)));
      expect(standin.tokenRequests).toBe(before + 1);
    });

    it('refreshes ahead of expiry', async () => {
      let clock = Date.now();
      const login = new MpWechatLogin({ appId: MP.appId, appSecret: MP.appSecret, apiBase: standin.url, qrImageBase: `${standin.url}/cgi-bin/showqrcode`, now: () => clock });
      await login.createQr('clock_scene_1', 600);
      const before = standin.tokenRequests;
      clock += 6000 * 1000;
      await login.createQr('clock_scene_2', 600);
      expect(standin.tokenRequests).toBe(before);
      clock += 1000 * 1000;
      await login.createQr('clock_scene_3', 600);
      expect(standin.tokenRequests).toBe(before + 1);
    });

    it('surfaces WeChat errors as WechatApiError with the errcode', async () => {
      const wrongSecret = new MpWechatLogin({ appId: MP.appId, appSecret: 'wrong', apiBase: standin.url, qrImageBase: 'https://example.invalid/q' });
      await expect(wrongSecret.createQr('some_scene_1', 600)).rejects.toMatchObject({ name: 'WechatApiError', errcode: 40125 });
      const wrongApp = new MpWechatLogin({ appId: 'wxnope', appSecret: MP.appSecret, apiBase: standin.url, qrImageBase: 'https://example.invalid/q' });
      await expect(wrongApp.createQr('some_scene_2', 600)).rejects.toBeInstanceOf(WechatApiError);
      const unreachable = new MpWechatLogin({ appId: MP.appId, appSecret: MP.appSecret, apiBase: 'http://127.0.0.1:1', qrImageBase: 'https://example.invalid/q' });
      await expect(unreachable.createQr('some_scene_3', 600)).rejects.toBeInstanceOf(WechatApiError);
    });
  });
});

describe('mp event push when recording the scan fails', () => {
  it('answers an error so that WeChat pushes the event again', async () => {
    const standin = await startWechatMpStandin(MP);
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const calls: Array<[string, string]> = [];
    let fail = true;
    await app.register(
      wechatMpEventRoutes({
        token: MP.token,
        recordScan: async (scene, openid) => {
          calls.push([scene, openid]);
          if (fail) throw new Error('database unavailable');
          return true;
        },
      }),
      { prefix: '/api' },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/wx/mp/event`;
      const xml =
        '<xml><FromUserName><![CDATA[oRetry]]></FromUserName><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[retryScene01]]></EventKey></xml>';
      expect((await standin.push({ callbackUrl, xml })).status).toBe(500);
      fail = false;
      expect(await standin.push({ callbackUrl, xml })).toEqual({ status: 200, body: 'success' });
      expect(calls).toEqual([
        ['retryScene01', 'oRetry'],
        ['retryScene01', 'oRetry'],
      ]);
    } finally {
      await app.close();
      await standin.close();
    }
  });
});
