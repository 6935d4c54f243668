import { createHmac, randomUUID } from 'node:crypto';
import { SmsSendError, type SmsSender } from './types.js';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** `https://dysmsapi.aliyuncs.com` in production; a stand-in's `http://127.0.0.1:PORT` in tests. */
  endpoint: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Aliyun POP percent-encoding. The service re-encodes with Java's URLEncoder plus fix-ups, which
 * leaves only RFC 3986 unreserved characters bare; encodeURIComponent alone would also leave
 * `!'()*` bare and the signature would not match for sign names containing them.
 */
function popEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Second precision: the documented format is `yyyy-MM-ddTHH:mm:ssZ`, and milliseconds are not accepted everywhere. */
function popTimestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Classic RPC signature (SignatureVersion 1.0, HMAC-SHA1) over the sorted, encoded parameters.
 * Exported so a test can pin it to Aliyun's published worked examples, which use GET.
 */
export function signRpc(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${popEncode(k)}=${popEncode(params[k] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** Dysmsapi `SendSms` (2017-05-25). */
export class AliyunSmsSender implements SmsSender {
  readonly name = 'aliyun' as const;
  readonly sandbox = false;
  private readonly url: string;

  constructor(private readonly opts: AliyunSmsOptions) {
    this.url = `${opts.endpoint.replace(/\/+$/, '')}/`;
  }

  async sendCode(phone: string, code: string): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: this.opts.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: phone,
      RegionId: 'cn-hangzhou',
      SignName: this.opts.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: this.opts.templateCode,
      TemplateParam: JSON.stringify({ code }),
      Timestamp: popTimestamp(new Date()),
      Version: '2017-05-25',
    };
    params.Signature = signRpc('POST', params, this.opts.accessKeySecret);
    const body = Object.entries(params)
      .map(([k, v]) => `${popEncode(k)}=${popEncode(v)}`)
      .join('&');

    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let status: number;
    let text: string;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      throw new SmsSendError(`Aliyun SMS unreachable: ${describeFetchError(err, timeoutMs)}`);
    }

    let reply: { Code?: unknown; Message?: unknown };
    try {
      reply = JSON.parse(text) as typeof reply;
    } catch {
      throw new SmsSendError(`Aliyun SMS answered HTTP ${status} with a non-JSON body`);
    }
    if (reply === null || typeof reply !== 'object') {
      throw new SmsSendError(`Aliyun SMS answered HTTP ${status} with an unexpected body`);
    }
    if (reply.Code === 'OK') return;
    const vendorCode = typeof reply.Code === 'string' ? reply.Code : undefined;
    const message = typeof reply.Message === 'string' ? reply.Message : `HTTP ${status}`;
    throw new SmsSendError(`Aliyun SMS refused: ${message}`, vendorCode);
  }
}

/** undici reports refused connections as a bare "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND) is in `cause`. */
function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}
