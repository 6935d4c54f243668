import { createHash, createHmac } from 'node:crypto';
import { SmsSendError, type SmsSender } from './types.js';

export interface TencentSmsOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  /** e.g. `ap-guangzhou`; sent as X-TC-Region. */
  region: string;
  /** `https://sms.tencentcloudapi.com` in production; a stand-in's `http://127.0.0.1:PORT` in tests. */
  endpoint: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
const SERVICE = 'sms';
const ACTION = 'SendSms';
const VERSION = '2021-01-11';
// Signed verbatim, so it must be byte-identical to the header fetch sends.
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

interface TencentReply {
  Response?: {
    Error?: { Code?: unknown; Message?: unknown };
    SendStatusSet?: Array<{ Code?: unknown; Message?: unknown }>;
    RequestId?: unknown;
  };
}

/**
 * TC3-HMAC-SHA256 Authorization header for a JSON POST to `/`, signing content-type and host.
 * Exported so a test can pin it to Tencent's published worked example (service `cvm`).
 */
export function signTc3(input: { secretId: string; secretKey: string; service: string; host: string; timestamp: number; payload: string }): string {
  // The credential scope date is the UTC date of the timestamp, not local time.
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = ['POST', '/', '', `content-type:${CONTENT_TYPE}\nhost:${input.host}\n`, signedHeaders, sha256Hex(input.payload)].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const secretDate = hmac(`TC3${input.secretKey}`, date);
  const secretService = hmac(secretDate, input.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** Tencent Cloud API 3.0 `SendSms` (2021-01-11), signed with TC3-HMAC-SHA256. */
export class TencentSmsSender implements SmsSender {
  readonly name = 'tencent' as const;
  readonly sandbox = false;
  private readonly url: string;
  // The signed `host` must equal the Host header fetch derives from the URL, port included.
  private readonly host: string;

  constructor(private readonly opts: TencentSmsOptions) {
    const url = new URL(opts.endpoint);
    this.url = `${url.origin}/`;
    this.host = url.host;
  }

  async sendCode(phone: string, code: string): Promise<void> {
    const timestamp = Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({
      PhoneNumberSet: [`+86${phone}`],
      SmsSdkAppId: this.opts.sdkAppId,
      SignName: this.opts.signName,
      TemplateId: this.opts.templateId,
      TemplateParamSet: [code],
    });
    const authorization = signTc3({
      secretId: this.opts.secretId,
      secretKey: this.opts.secretKey,
      service: SERVICE,
      host: this.host,
      timestamp,
      payload,
    });

    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let status: number;
    let text: string;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': CONTENT_TYPE,
          'x-tc-action': ACTION,
          'x-tc-version': VERSION,
          'x-tc-timestamp': String(timestamp),
          'x-tc-region': this.opts.region,
        },
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      throw new SmsSendError(`Tencent SMS unreachable: ${describeFetchError(err, timeoutMs)}`);
    }

    let reply: TencentReply;
    try {
      reply = JSON.parse(text) as TencentReply;
    } catch {
      throw new SmsSendError(`Tencent SMS answered HTTP ${status} with a non-JSON body`);
    }
    const response = reply !== null && typeof reply === 'object' ? reply.Response : undefined;
    if (!response || typeof response !== 'object') {
      throw new SmsSendError(`Tencent SMS answered HTTP ${status} without a Response object`);
    }
    // Tencent reports auth and parameter errors with HTTP 200, so the body decides, not the status.
    if (response.Error) {
      const vendorCode = typeof response.Error.Code === 'string' ? response.Error.Code : undefined;
      const message = typeof response.Error.Message === 'string' ? response.Error.Message : 'unknown error';
      throw new SmsSendError(`Tencent SMS refused: ${message}`, vendorCode);
    }
    const statuses = Array.isArray(response.SendStatusSet) ? response.SendStatusSet : [];
    if (statuses.length === 0) {
      throw new SmsSendError(`Tencent SMS answered HTTP ${status} without a SendStatusSet`);
    }
    // A per-number failure (daily limit, bad number) still comes back as a successful API call.
    const failed = statuses.find((s) => s?.Code !== 'Ok');
    if (failed) {
      const vendorCode = typeof failed.Code === 'string' ? failed.Code : undefined;
      const message = typeof failed.Message === 'string' ? failed.Message : 'message not sent';
      throw new SmsSendError(`Tencent SMS refused: ${message}`, vendorCode);
    }
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
