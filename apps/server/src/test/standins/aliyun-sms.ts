import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for Aliyun Dysmsapi `SendSms` (2017-05-25, classic RPC signature v1.0).
 * The signature is recomputed here from the raw form fields with a separately written encoder,
 * so an adapter bug cannot be mirrored by a shared helper and still pass.
 */

export interface AliyunSmsStandin {
  url: string;
  received: Array<{ phone: string; signName: string; templateCode: string; code: string }>;
  /** The next authenticated SendSms is refused with this business error code (HTTP 200, as Aliyun does). */
  failNext(code: string, message: string): void;
  close(): Promise<void>;
}

export interface AliyunSmsStandinOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** The stand-in's clock in ms; tests skew it to exercise the timestamp window. */
  now?: () => number;
}

const TIMESTAMP_WINDOW_MS = 15 * 60 * 1000;
const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** RFC 3986 encoding, byte by byte over UTF-8: what Aliyun's URLEncoder-plus-fix-ups amounts to. */
function rfc3986(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function expectedSignature(method: string, fields: Map<string, string>, secret: string): string {
  const pairs = [...fields.entries()]
    .filter(([k]) => k !== 'Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    // Aliyun sorts on the encoded key in byte order, not locale order.
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  const stringToSign = `${method}&${rfc3986('/')}&${rfc3986(query)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

function sameString(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

const requestId = () => randomUUID().toUpperCase();
const bizId = () => `${Math.floor(Math.random() * 1e15)}^0`;

export async function startAliyunSmsStandin(opts: AliyunSmsStandinOptions): Promise<AliyunSmsStandin> {
  const now = opts.now ?? Date.now;
  const received: AliyunSmsStandin['received'] = [];
  const usedNonces = new Set<string>();
  let pendingFailure: { code: string; message: string } | null = null;

  const handle = (method: string, fields: Map<string, string>): { status: number; body: Record<string, unknown> } => {
    const fail = (status: number, code: string, message: string) => ({
      status,
      body: { RequestId: requestId(), HostId: 'dysmsapi.aliyuncs.com', Code: code, Message: message },
    });

    for (const name of ['AccessKeyId', 'Signature', 'SignatureMethod', 'SignatureNonce', 'SignatureVersion', 'Timestamp', 'Version', 'Action']) {
      if (!fields.get(name)) return fail(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    if (fields.get('AccessKeyId') !== opts.accessKeyId) {
      return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    if (fields.get('SignatureMethod') !== 'HMAC-SHA1') {
      return fail(400, 'InvalidSignatureMethod', 'Specified signature method is not supported.');
    }
    if (fields.get('SignatureVersion') !== '1.0') {
      return fail(400, 'UnsupportedSignatureVersion', 'Specified signature version is not supported.');
    }
    const timestamp = fields.get('Timestamp') ?? '';
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
      return fail(400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.');
    }
    if (Math.abs(now() - Date.parse(timestamp)) > TIMESTAMP_WINDOW_MS) {
      return fail(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    }
    if (!sameString(fields.get('Signature') ?? '', expectedSignature(method, fields, opts.accessKeySecret))) {
      return fail(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    }
    // Only authenticated requests consume a nonce, so forged traffic cannot burn a client's nonces.
    const nonce = fields.get('SignatureNonce') ?? '';
    if (usedNonces.has(nonce)) return fail(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    usedNonces.add(nonce);

    if (fields.get('Action') !== 'SendSms') {
      return fail(400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
    }
    if (fields.get('Version') !== '2017-05-25') {
      return fail(400, 'InvalidVersion', 'Specified parameter Version is not valid.');
    }
    if (fields.has('Format') && fields.get('Format') !== 'JSON') {
      return fail(400, 'InvalidParameter', 'This stand-in only speaks Format=JSON.');
    }

    const business = (code: string, message: string) => ({
      status: 200,
      body: { Message: message, RequestId: requestId(), Code: code },
    });
    const phones = fields.get('PhoneNumbers');
    if (!phones) return business('MissingPhoneNumbers', 'PhoneNumbers is mandatory for this action.');
    const signName = fields.get('SignName');
    if (!signName) return business('MissingSignName', 'SignName is mandatory for this action.');
    const templateCode = fields.get('TemplateCode');
    if (!templateCode) return business('MissingTemplateCode', 'TemplateCode is mandatory for this action.');

    // Mainland numbers, optionally with the 86 / +86 / 0086 country prefix Aliyun tolerates.
    const phone = /^(?:\+?86|0086)?(1[3-9]\d{9})$/.exec(phones)?.[1];
    if (!phone) return business('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');

    let code: unknown;
    try {
      code = (JSON.parse(fields.get('TemplateParam') ?? '') as { code?: unknown }).code;
    } catch {
      return business('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    if (typeof code !== 'string' || code === '') {
      return business('isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
    }

    if (pendingFailure) {
      const { code: failCode, message } = pendingFailure;
      pendingFailure = null;
      return business(failCode, message);
    }
    received.push({ phone, signName, templateCode, code });
    return { status: 200, body: { Message: 'OK', RequestId: requestId(), BizId: bizId(), Code: 'OK' } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? '/', 'http://standin');
      if (req.method !== 'POST' || url.pathname !== '/') {
        reply(404, { RequestId: requestId(), Code: 'InvalidAction.NotFound', Message: 'Specified api is not found.' });
        return;
      }
      // RPC signs the union of query and form parameters, so both are read.
      const fields = new Map<string, string>(url.searchParams);
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType === 'application/x-www-form-urlencoded') {
        for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) fields.set(k, v);
      }
      const { status, body } = handle(req.method, fields);
      reply(status, body);
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
