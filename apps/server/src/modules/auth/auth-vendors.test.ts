import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type LoginResult } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { nextPhone } from '../../test/auth-helpers.js';
import { startAliyunSmsStandin, type AliyunSmsStandin } from '../../test/standins/aliyun-sms.js';
import { startTencentSmsStandin, type TencentSmsStandin } from '../../test/standins/tencent-sms.js';

/** Phone login end to end with a real SMS vendor configured: the code travels through the vendor stand-in. */
describe('phone login through a real SMS vendor', () => {
  let aliyun: AliyunSmsStandin;
  let tencent: TencentSmsStandin;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    aliyun = await startAliyunSmsStandin({ accessKeyId: 'LTAI-test', accessKeySecret: 'aliyun-secret' });
    tencent = await startTencentSmsStandin({ secretId: 'AKID-test', secretKey: 'tencent-secret', sdkAppId: '1400000001' });
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await aliyun?.close();
    await tencent?.close();
  });

  const vendors = [
    {
      name: 'aliyun',
      env: () => ({
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-test',
        ALIYUN_SMS_ACCESS_KEY_SECRET: 'aliyun-secret',
        ALIYUN_SMS_SIGN_NAME: '砚',
        ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
        ALIYUN_SMS_ENDPOINT: aliyun.url,
      }),
      received: (phone: string) => aliyun.received.filter((m) => m.phone === phone).map((m) => m.code),
      fail: () => aliyun.failNext('isv.BUSINESS_LIMIT_CONTROL', '触发号码天级流控'),
    },
    {
      name: 'tencent',
      env: () => ({
        SMS_PROVIDER: 'tencent',
        TENCENT_SMS_SECRET_ID: 'AKID-test',
        TENCENT_SMS_SECRET_KEY: 'tencent-secret',
        TENCENT_SMS_SDK_APP_ID: '1400000001',
        TENCENT_SMS_SIGN_NAME: '砚',
        TENCENT_SMS_TEMPLATE_ID: '100',
        TENCENT_SMS_ENDPOINT: tencent.url,
      }),
      received: (phone: string) => tencent.received.filter((m) => m.phone.endsWith(phone)).map((m) => m.code),
      fail: () => tencent.failNext('LimitExceeded.PhoneNumberDailyLimit', 'daily limit'),
    },
  ];

  it.each(vendors)('$name: the code the vendor delivered logs the user in, and the dev outbox is gone', async (v) => {
    const t = await startTestApp({ env: v.env() });
    apps.push(t);
    const phone = nextPhone();
    const sent = await t.call<{ sandbox: boolean }>('GET', '/auth/send/msg', { query: { phone } });
    expect(sent.code).toBe(0);
    expect(sent.data.sandbox).toBe(false);
    const codes = v.received(phone);
    expect(codes).toHaveLength(1);
    const login = await t.call<LoginResult>('POST', '/auth/doLogin0', { body: { phone, code: codes[0] } });
    expect(login.code).toBe(0);
    expect((await t.call('GET', '/dev/sms-outbox', { query: { phone } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it.each(vendors)('$name: a vendor refusal answers a clear error and does not block a retry', async (v) => {
    const t = await startTestApp({ env: v.env() });
    apps.push(t);
    const phone = nextPhone();
    v.fail();
    const refused = await t.call('GET', '/auth/send/msg', { query: { phone } });
    expect(refused.code).toBe(ErrorCode.SMS_SEND_FAILED);
    const retry = await t.call('GET', '/auth/send/msg', { query: { phone } });
    expect(retry.code).toBe(0);
    expect(v.received(phone)).toHaveLength(1);
  });
});
