import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { startAliyunSmsStandin } from '../../test/standins/aliyun-sms.js';
import { startTencentSmsStandin } from '../../test/standins/tencent-sms.js';
import { AliyunSmsSender, signRpc } from './aliyun.js';
import { OutboxSmsSender } from './outbox.js';
import { TencentSmsSender, signTc3 } from './tencent.js';
import { SmsSendError, type SmsSender } from './types.js';

interface SenderOverrides {
  keyId?: string;
  secret?: string;
  signName?: string;
  endpoint?: string;
  timeoutMs?: number;
}

/** What a real vendor adds on top of the outbox: a remote side that can refuse. */
interface VendorHooks {
  makeSender(overrides?: SenderOverrides): SmsSender;
  received: Array<{ phone: string; signName: string; templateCode: string; code: string }>;
  failNext(code: string, message: string): void;
  /** Shifts the stand-in's clock, to exercise the vendor's timestamp window. */
  skewClock(ms: number): void;
  refusalCode: string;
  signatureErrorCode: string;
  unknownKeyCode: string;
  expiredCode: string;
  expiredAfterMs: number;
  illegalPhoneCode: string;
  signName: string;
  templateCode: string;
}

interface Harness {
  sender: SmsSender;
  /** Codes the receiving side holds for this phone, oldest first. */
  codesFor(phone: string): Promise<string[]>;
  vendor?: VendorHooks;
  close(): Promise<void>;
}

interface Case {
  name: SmsSender['name'];
  start(): Promise<Harness>;
}

const SIGN_NAME = '砚台';

const cases: Case[] = [
  {
    name: 'outbox',
    async start() {
      const handle = await openDatabase({ dataDir: null });
      const sender = new OutboxSmsSender(handle.db, pino({ level: 'silent' }));
      return {
        sender,
        async codesFor(phone) {
          const rows = await sender.list(phone);
          return rows.map((r) => r.code).reverse();
        },
        close: () => handle.close(),
      };
    },
  },
  {
    name: 'aliyun',
    async start() {
      let skew = 0;
      const creds = { accessKeyId: 'LTAI5tStandinKeyId', accessKeySecret: 'standin-secret-aliyun' };
      const standin = await startAliyunSmsStandin({ ...creds, now: () => Date.now() + skew });
      const templateCode = 'SMS_465320001';
      const makeSender = (o: SenderOverrides = {}) =>
        new AliyunSmsSender({
          accessKeyId: o.keyId ?? creds.accessKeyId,
          accessKeySecret: o.secret ?? creds.accessKeySecret,
          signName: o.signName ?? SIGN_NAME,
          templateCode,
          endpoint: o.endpoint ?? standin.url,
          timeoutMs: o.timeoutMs,
        });
      return {
        sender: makeSender(),
        codesFor: async (phone) => standin.received.filter((r) => r.phone === phone).map((r) => r.code),
        vendor: {
          makeSender,
          received: standin.received,
          failNext: (code, message) => standin.failNext(code, message),
          skewClock: (ms) => {
            skew = ms;
          },
          refusalCode: 'isv.BUSINESS_LIMIT_CONTROL',
          signatureErrorCode: 'SignatureDoesNotMatch',
          unknownKeyCode: 'InvalidAccessKeyId.NotFound',
          expiredCode: 'InvalidTimeStamp.Expired',
          expiredAfterMs: 15 * 60 * 1000,
          illegalPhoneCode: 'isv.MOBILE_NUMBER_ILLEGAL',
          signName: SIGN_NAME,
          templateCode,
        },
        close: () => standin.close(),
      };
    },
  },
  {
    name: 'tencent',
    async start() {
      let skew = 0;
      const creds = { secretId: 'AKIDstandinSecretId', secretKey: 'standin-secret-tencent', sdkAppId: '1400006666' };
      const standin = await startTencentSmsStandin({ ...creds, now: () => Date.now() + skew });
      const templateId = '1110';
      const makeSender = (o: SenderOverrides = {}) =>
        new TencentSmsSender({
          secretId: o.keyId ?? creds.secretId,
          secretKey: o.secret ?? creds.secretKey,
          sdkAppId: creds.sdkAppId,
          signName: o.signName ?? SIGN_NAME,
          templateId,
          region: 'ap-guangzhou',
          endpoint: o.endpoint ?? standin.url,
          timeoutMs: o.timeoutMs,
        });
      return {
        sender: makeSender(),
        codesFor: async (phone) => standin.received.filter((r) => r.phone === phone).map((r) => r.code),
        vendor: {
          makeSender,
          received: standin.received,
          failNext: (code, message) => standin.failNext(code, message),
          skewClock: (ms) => {
            skew = ms;
          },
          refusalCode: 'LimitExceeded.PhoneNumberDailyLimit',
          signatureErrorCode: 'AuthFailure.SignatureFailure',
          unknownKeyCode: 'AuthFailure.SecretIdNotFound',
          expiredCode: 'AuthFailure.SignatureExpire',
          expiredAfterMs: 5 * 60 * 1000,
          illegalPhoneCode: 'InvalidParameterValue.IncorrectPhoneNumber',
          signName: SIGN_NAME,
          templateCode: templateId,
        },
        close: () => standin.close(),
      };
    },
  },
];

/** Resolves to the SmsSendError the promise rejects with; fails the test if it resolves or rejects otherwise. */
async function sendError(promise: Promise<void>): Promise<SmsSendError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsSendError);
  return err as SmsSendError;
}

// Distinct numbers per test keep assertions independent of test order.
let phoneSeq = 0;
const nextPhone = () => `1380013${String(++phoneSeq).padStart(4, '0')}`;

describe.each(cases)('SmsSender contract: $name', ({ name, start }) => {
  let h: Harness;
  const isVendor = name !== 'outbox';
  const vendor = (): VendorHooks => {
    if (!h.vendor) throw new Error(`${name} has no vendor hooks`);
    return h.vendor;
  };

  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('identifies itself, and only the outbox claims to be a sandbox', () => {
    expect(h.sender.name).toBe(name);
    expect(h.sender.sandbox).toBe(name === 'outbox');
  });

  it('delivers exactly the code to that phone and nothing to others', async () => {
    const phone = nextPhone();
    const bystander = nextPhone();
    await h.sender.sendCode(phone, '482913');
    expect(await h.codesFor(phone)).toEqual(['482913']);
    expect(await h.codesFor(bystander)).toEqual([]);
  });

  it('delivers consecutive codes in order (each request is independently accepted)', async () => {
    const phone = nextPhone();
    await h.sender.sendCode(phone, '000123');
    await h.sender.sendCode(phone, '654321');
    expect(await h.codesFor(phone)).toEqual(['000123', '654321']);
  });

  // The outbox has no remote side that could refuse, so these only apply to real vendors.
  if (isVendor) {
    describe('as a remote vendor', () => {
      it('sends the configured sign name and template', async () => {
        const v = vendor();
        const phone = nextPhone();
        await h.sender.sendCode(phone, '135790');
        expect(v.received.filter((r) => r.phone === phone)).toEqual([{ phone, signName: v.signName, templateCode: v.templateCode, code: '135790' }]);
      });

      it('signs sign names containing characters outside the unreserved set', async () => {
        const v = vendor();
        const phone = nextPhone();
        const signName = "砚台 (Ink*stone)~'!";
        await v.makeSender({ signName }).sendCode(phone, '246801');
        expect(v.received.filter((r) => r.phone === phone).map((r) => [r.signName, r.code])).toEqual([[signName, '246801']]);
      });

      it('rejects a vendor refusal with SmsSendError carrying the vendor code', async () => {
        const v = vendor();
        const phone = nextPhone();
        v.failNext(v.refusalCode, 'daily limit reached');
        const err = await sendError(h.sender.sendCode(phone, '111111'));
        expect(err.vendorCode).toBe(v.refusalCode);
        expect(err.message).toContain('daily limit reached');
        expect(await h.codesFor(phone)).toEqual([]);
        // The refusal is one-shot: the next send goes through.
        await h.sender.sendCode(phone, '222222');
        expect(await h.codesFor(phone)).toEqual(['222222']);
      });

      it('is refused with the signature error when configured with a wrong secret', async () => {
        const v = vendor();
        const phone = nextPhone();
        const err = await sendError(v.makeSender({ secret: 'not-the-secret' }).sendCode(phone, '333333'));
        expect(err.vendorCode).toBe(v.signatureErrorCode);
        expect(await h.codesFor(phone)).toEqual([]);
      });

      it('is refused when the key id is unknown', async () => {
        const v = vendor();
        const err = await sendError(v.makeSender({ keyId: 'no-such-key' }).sendCode(nextPhone(), '444444'));
        expect(err.vendorCode).toBe(v.unknownKeyCode);
      });

      it('is refused when its clock is outside the vendor window, accepted inside it', async () => {
        const v = vendor();
        try {
          v.skewClock(v.expiredAfterMs + 60_000);
          const err = await sendError(h.sender.sendCode(nextPhone(), '555555'));
          expect(err.vendorCode).toBe(v.expiredCode);
          v.skewClock(v.expiredAfterMs - 60_000);
          const phone = nextPhone();
          await h.sender.sendCode(phone, '565656');
          expect(await h.codesFor(phone)).toEqual(['565656']);
        } finally {
          v.skewClock(0);
        }
      });

      it('surfaces the vendor rejection of an illegal phone number', async () => {
        const v = vendor();
        const err = await sendError(h.sender.sendCode('12345', '666666'));
        expect(err.vendorCode).toBe(v.illegalPhoneCode);
      });

      it('rejects with SmsSendError when the endpoint is unreachable', async () => {
        const err = await sendError(vendor().makeSender({ endpoint: 'http://127.0.0.1:1' }).sendCode(nextPhone(), '777777'));
        expect(err.vendorCode).toBeUndefined();
        expect(err.message).toMatch(/unreachable/);
      });

      it('rejects with SmsSendError when the vendor never answers', async () => {
        const sockets = new Set<import('node:net').Socket>();
        const silent = http.createServer(() => {
          // Deliberately never responds.
        });
        silent.on('connection', (s) => sockets.add(s));
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        try {
          const { port } = silent.address() as AddressInfo;
          const started = Date.now();
          const err = await sendError(
            vendor()
              .makeSender({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 200 })
              .sendCode(nextPhone(), '888888'),
          );
          expect(err.message).toMatch(/no answer within 200 ms/);
          expect(Date.now() - started).toBeLessThan(5000);
        } finally {
          for (const s of sockets) s.destroy();
          await new Promise<void>((resolve) => silent.close(() => resolve()));
        }
      });

      it('rejects with SmsSendError when the vendor answers with something other than JSON', async () => {
        const html = http.createServer((_req, res) => {
          res.writeHead(502, { 'content-type': 'text/html' });
          res.end('<html><body>502 Bad Gateway</body></html>');
        });
        await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
        try {
          const { port } = html.address() as AddressInfo;
          const err = await sendError(
            vendor()
              .makeSender({ endpoint: `http://127.0.0.1:${port}` })
              .sendCode(nextPhone(), '999999'),
          );
          expect(err.message).toMatch(/HTTP 502/);
        } finally {
          html.closeAllConnections();
          await new Promise<void>((resolve) => html.close(() => resolve()));
        }
      });
    });
  }
});

/** Runs one send through a fetch spy and returns the exact request the adapter put on the wire. */
async function captureRequest(send: () => Promise<void>): Promise<{ url: string; headers: Record<string, string>; body: string }> {
  const spy = vi.spyOn(globalThis, 'fetch');
  try {
    await send();
    expect(spy).toHaveBeenCalledTimes(1);
    const [url, init] = spy.mock.calls[0] ?? [];
    return { url: String(url), headers: { ...(init?.headers as Record<string, string>) }, body: String(init?.body) };
  } finally {
    spy.mockRestore();
  }
}

/** Sends raw bytes with full control over headers, Host included (fetch would not allow overriding it). */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// The adapters and stand-ins were written from the same reading of the docs; these pin that reading
// to the vendors' own worked examples so a shared misunderstanding cannot pass unnoticed.
describe("signatures match the vendors' published worked examples", () => {
  it('aliyun RPC v1: DescribeRegions example from the signature docs', () => {
    const params = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    };
    expect(signRpc('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('aliyun RPC v1: SendSms example with a Chinese sign name and JSON TemplateParam', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(signRpc('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('tencent TC3: DescribeInstances example from the API 3.0 signature docs', () => {
    const authorization = signTc3({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      timestamp: 1551113065,
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    });
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

// These guard the guards: if the stand-ins accepted anything, the contract suite above would prove nothing.
describe('aliyun stand-in verifies what it is sent', () => {
  const creds = { accessKeyId: 'LTAI5tStandinKeyId', accessKeySecret: 'standin-secret-aliyun' };
  let standin: Awaited<ReturnType<typeof startAliyunSmsStandin>>;
  let sender: AliyunSmsSender;
  beforeAll(async () => {
    standin = await startAliyunSmsStandin(creds);
    sender = new AliyunSmsSender({ ...creds, signName: SIGN_NAME, templateCode: 'SMS_1', endpoint: standin.url });
  });
  afterAll(() => standin.close());

  it('sends the documented RPC parameters', async () => {
    const { url, headers, body } = await captureRequest(() => sender.sendCode('13900000001', '123456'));
    expect(url).toBe(`${standin.url}/`);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(body);
    expect(Object.fromEntries([...form].filter(([k]) => !['Signature', 'SignatureNonce', 'Timestamp'].includes(k)))).toEqual({
      AccessKeyId: creds.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: '13900000001',
      RegionId: 'cn-hangzhou',
      SignName: SIGN_NAME,
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_1',
      TemplateParam: '{"code":"123456"}',
      Version: '2017-05-25',
    });
    expect(form.get('Timestamp')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(form.get('SignatureNonce')).toMatch(/^[0-9a-f-]{36}$/);
    expect(form.get('Signature')).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });

  it('refuses a replayed request and a tampered one', async () => {
    const { url, headers, body } = await captureRequest(() => sender.sendCode('13900000002', '123456'));
    const replay = await rawPost(url, headers, body);
    expect(replay).toMatchObject({ status: 400, json: { Code: 'SignatureNonceUsed' } });

    const tampered = new URLSearchParams(body);
    tampered.set('TemplateParam', '{"code":"000000"}');
    tampered.set('SignatureNonce', '00000000-0000-4000-8000-000000000000');
    const forged = await rawPost(url, headers, tampered.toString());
    expect(forged).toMatchObject({ status: 400, json: { Code: 'SignatureDoesNotMatch' } });
    expect(standin.received.filter((r) => r.phone === '13900000002').map((r) => r.code)).toEqual(['123456']);
  });
});

describe('tencent stand-in verifies what it is sent', () => {
  const creds = { secretId: 'AKIDstandinSecretId', secretKey: 'standin-secret-tencent', sdkAppId: '1400006666' };
  let standin: Awaited<ReturnType<typeof startTencentSmsStandin>>;
  let sender: TencentSmsSender;
  beforeAll(async () => {
    standin = await startTencentSmsStandin(creds);
    sender = new TencentSmsSender({
      ...creds,
      signName: SIGN_NAME,
      templateId: '1110',
      region: 'ap-guangzhou',
      endpoint: standin.url,
    });
  });
  afterAll(() => standin.close());

  it('sends the documented API 3.0 headers and body', async () => {
    const { url, headers, body } = await captureRequest(() => sender.sendCode('13900000003', '654321'));
    expect(url).toBe(`${standin.url}/`);
    expect(headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-tc-action': 'SendSms',
      'x-tc-version': '2021-01-11',
      'x-tc-region': 'ap-guangzhou',
    });
    expect(headers['x-tc-timestamp']).toMatch(/^\d{10}$/);
    expect(headers.authorization).toMatch(
      new RegExp(`^TC3-HMAC-SHA256 Credential=${creds.secretId}/\\d{4}-\\d{2}-\\d{2}/sms/tc3_request, ` + 'SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$'),
    );
    expect(JSON.parse(body)).toEqual({
      PhoneNumberSet: ['+8613900000003'],
      SmsSdkAppId: creds.sdkAppId,
      SignName: SIGN_NAME,
      TemplateId: '1110',
      TemplateParamSet: ['654321'],
    });
  });

  it('accepts an unmodified copy but refuses a changed body or Host', async () => {
    const { url, headers, body } = await captureRequest(() => sender.sendCode('13900000004', '123456'));
    const host = new URL(url).host;
    // Positive control: the raw client itself reproduces a valid request.
    const copy = await rawPost(url, { ...headers, host }, body);
    expect(copy.json).toMatchObject({ Response: { SendStatusSet: [{ Code: 'Ok' }] } });

    const forgedBody = await rawPost(url, { ...headers, host }, body.replace('123456', '000000'));
    expect(forgedBody.json).toMatchObject({ Response: { Error: { Code: 'AuthFailure.SignatureFailure' } } });
    const forgedHost = await rawPost(url, { ...headers, host: 'sms.tencentcloudapi.com' }, body);
    expect(forgedHost.json).toMatchObject({ Response: { Error: { Code: 'AuthFailure.SignatureFailure' } } });
    expect(standin.received.filter((r) => r.phone === '13900000004').map((r) => r.code)).toEqual(['123456', '123456']);
  });
});
