import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for Tencent Cloud SMS `SendSms` (API 3.0, version 2021-01-11).
 * TC3-HMAC-SHA256 is recomputed here from the raw bytes and headers that actually arrived, with
 * its own code, so a signing bug in the adapter shows up as AuthFailure.SignatureFailure.
 */

export interface TencentSmsStandin {
  url: string;
  received: Array<{ phone: string; signName: string; templateCode: string; code: string }>;
  /** The next authenticated SendSms gets a SendStatusSet entry with this Code instead of "Ok". */
  failNext(code: string, message: string): void;
  close(): Promise<void>;
}

export interface TencentSmsStandinOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  /** The stand-in's clock in ms; tests skew it to exercise the five-minute window. */
  now?: () => number;
}

const MAX_SKEW_SECONDS = 5 * 60;
const REGIONS = new Set(['ap-guangzhou', 'ap-beijing', 'ap-nanjing']);
const AUTH_RE = /^TC3-HMAC-SHA256 Credential=([^/\s]+)\/(\d{4}-\d{2}-\d{2})\/([a-z0-9]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

const hexSha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function tc3Signature(secretKey: string, date: string, service: string, stringToSign: string): string {
  let key: Buffer = createHmac('sha256', `TC3${secretKey}`).update(date).digest();
  key = createHmac('sha256', key).update(service).digest();
  key = createHmac('sha256', key).update('tc3_request').digest();
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

type Reply = { Response: Record<string, unknown> & { RequestId: string } };

export async function startTencentSmsStandin(opts: TencentSmsStandinOptions): Promise<TencentSmsStandin> {
  const now = opts.now ?? Date.now;
  const received: TencentSmsStandin['received'] = [];
  let pendingFailure: { code: string; message: string } | null = null;

  const handle = (req: http.IncomingMessage, rawBody: Buffer): Reply => {
    const RequestId = randomUUID();
    const error = (Code: string, Message: string): Reply => ({ Response: { Error: { Code, Message }, RequestId } });
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };

    const authorization = header('authorization');
    const action = header('x-tc-action');
    const version = header('x-tc-version');
    const timestampHeader = header('x-tc-timestamp');
    const region = header('x-tc-region');
    if (!authorization) return error('AuthFailure.InvalidAuthorization', 'Authorization header is missing.');
    if (!action) return error('MissingParameter', 'The request is missing a required parameter `Action`.');
    if (!version) return error('MissingParameter', 'The request is missing a required parameter `Version`.');
    if (!timestampHeader || !/^\d+$/.test(timestampHeader)) {
      return error('MissingParameter', 'The request is missing a required parameter `Timestamp`.');
    }

    const auth = AUTH_RE.exec(authorization);
    if (!auth) return error('AuthFailure.InvalidAuthorization', 'Authorization header does not follow TC3-HMAC-SHA256.');
    const [, secretId, credentialDate, service, signedHeaderList, signature] = auth as unknown as [string, string, string, string, string, string];
    if (secretId !== opts.secretId) {
      return error('AuthFailure.SecretIdNotFound', 'The SecretId is not found, please ensure that your SecretId is correct.');
    }
    const timestamp = Number(timestampHeader);
    const serverSeconds = Math.floor(now() / 1000);
    if (Math.abs(serverSeconds - timestamp) > MAX_SKEW_SECONDS) {
      return error('AuthFailure.SignatureExpire', `Signature expired. Timestamp comparison is ${timestamp}, server time is ${serverSeconds}.`);
    }

    const signedHeaders = signedHeaderList.split(';');
    // Tencent requires both; without them the body type and target host would be unauthenticated.
    if (!signedHeaders.includes('content-type') || !signedHeaders.includes('host')) {
      return error('AuthFailure.InvalidAuthorization', 'SignedHeaders must include content-type and host.');
    }
    // Rebuilt from what arrived on the wire, so a Host or Content-Type that differs from the signed one fails here.
    const canonicalHeaders = signedHeaders.map((name) => `${name}:${(header(name) ?? '').trim().toLowerCase()}\n`).join('');
    const url = new URL(req.url ?? '/', 'http://standin');
    const canonicalRequest = [req.method ?? '', url.pathname, url.search.replace(/^\?/, ''), canonicalHeaders, signedHeaderList, hexSha256(rawBody)].join('\n');
    // The server derives the scope date from the timestamp; a client-chosen date that disagrees cannot verify.
    const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
    const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/sms/tc3_request\n${hexSha256(canonicalRequest)}`;
    const expected = Buffer.from(tc3Signature(opts.secretKey, date, 'sms', stringToSign));
    const given = Buffer.from(signature);
    if (credentialDate !== date || service !== 'sms' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return error('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
    }

    if (action !== 'SendSms') return error('InvalidAction', `The action \`${action}\` is not found.`);
    if (version !== '2021-01-11') return error('NoSuchVersion', `The version \`${version}\` is not supported.`);
    if (!region) return error('MissingParameter', 'The request is missing a required parameter `Region`.');
    if (!REGIONS.has(region)) return error('UnsupportedRegion', `The region \`${region}\` is not supported.`);

    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    } catch {
      return error('InvalidParameter', 'The request body is not a JSON object.');
    }
    const { PhoneNumberSet, SmsSdkAppId, SignName, TemplateId, TemplateParamSet } = body;
    if (!Array.isArray(PhoneNumberSet) || PhoneNumberSet.length === 0 || !PhoneNumberSet.every((p) => typeof p === 'string')) {
      return error('MissingParameter', 'The request is missing a required parameter `PhoneNumberSet`.');
    }
    if (typeof SmsSdkAppId !== 'string' || !SmsSdkAppId) {
      return error('MissingParameter', 'The request is missing a required parameter `SmsSdkAppId`.');
    }
    if (SmsSdkAppId !== opts.sdkAppId) return error('InvalidParameterValue.SdkAppIdNotExist', 'SdkAppId not exist.');
    if (typeof TemplateId !== 'string' || !TemplateId) {
      return error('MissingParameter', 'The request is missing a required parameter `TemplateId`.');
    }
    // Mainland messages must carry an approved sign name.
    if (typeof SignName !== 'string' || !SignName) {
      return error('FailedOperation.SignatureIncorrectOrUnapproved', 'Signature is missing or not approved.');
    }
    const params = TemplateParamSet ?? [];
    if (!Array.isArray(params) || !params.every((p) => typeof p === 'string')) {
      return error('InvalidParameter', 'The value type of parameter `TemplateParamSet.0` is incorrect.');
    }
    const code = params[0] as string | undefined;
    if (!code) return error('FailedOperation.TemplateIncorrectOrUnapproved', 'Template parameters do not match the template.');

    const failure = pendingFailure;
    pendingFailure = null;
    const statuses = (PhoneNumberSet as string[]).map((number) => {
      const base = { SerialNo: '', PhoneNumber: number, Fee: 0, SessionContext: '', IsoCode: 'CN' };
      // Tencent accepts +86, 0086, 86 or a bare 11-digit mainland number.
      const phone = /^(?:\+86|0086|86)?(1[3-9]\d{9})$/.exec(number)?.[1];
      if (!phone) {
        return { ...base, IsoCode: 'DEF', Code: 'InvalidParameterValue.IncorrectPhoneNumber', Message: 'phone number format error' };
      }
      if (failure) return { ...base, Code: failure.code, Message: failure.message };
      received.push({ phone, signName: SignName, templateCode: TemplateId, code });
      return { ...base, SerialNo: randomUUID(), Fee: 1, Code: 'Ok', Message: 'send success' };
    });
    return { Response: { SendStatusSet: statuses, RequestId } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Tencent answers API errors, auth failures included, with HTTP 200.
      const reply = handle(req, Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext(code, message) {
      pendingFailure = { code, message };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
