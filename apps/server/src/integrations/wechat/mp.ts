import { createHash } from 'node:crypto';
import { safeEqual } from '../../security/hashing.js';
import { WechatApiError, type WechatLogin } from './types.js';

export interface MpWechatLoginOptions {
  appId: string;
  appSecret: string;
  apiBase: string;
  qrImageBase: string;
  /** Milliseconds since the epoch; tests move it to age the cached access token. */
  now?: () => number;
}

const REQUEST_TIMEOUT_MS = 5000;
// Refreshing early leaves room for clock drift and for a QR request that is already under way.
const REFRESH_MARGIN_MS = 300_000;
/** invalid credential, access_token expired, invalid access_token: the token, not the request, is bad. */
const STALE_TOKEN_ERRCODES = new Set([40001, 42001, 40014]);

interface WechatErrorBody {
  errcode?: number;
  errmsg?: string;
}

/**
 * Whether `signature` is WeChat's signature for a push: sha1 over the lexicographically sorted
 * token, timestamp and nonce. Plain-text mode signs only these three, never the body.
 */
export function verifyWechatSignature(token: string, signature: string, timestamp: string, nonce: string): boolean {
  if (!token || !signature || !timestamp || !nonce) return false;
  const expected = createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex');
  return safeEqual(signature.toLowerCase(), expected);
}

/**
 * WeChat login through a verified Official Account (服务号): a temporary QR carries the scene, and
 * the scan arrives as a subscribe / SCAN event push handled by `mp.routes.ts`.
 */
export class MpWechatLogin implements WechatLogin {
  readonly name = 'mp' as const;
  readonly sandbox = false;

  private readonly apiBase: string;
  private readonly now: () => number;
  private cached: { token: string; expiresAt: number } | undefined;
  private inflight: { promise: Promise<string>; forced: boolean } | undefined;

  constructor(private readonly opts: MpWechatLoginOptions) {
    this.apiBase = opts.apiBase.replace(/\/+$/, '');
    this.now = opts.now ?? Date.now;
  }

  async createQr(scene: string, expireSeconds: number) {
    const body = await this.withToken((token) =>
      this.post<{ ticket?: unknown; expire_seconds?: unknown }>(`/cgi-bin/qrcode/create?access_token=${encodeURIComponent(token)}`, {
        expire_seconds: expireSeconds,
        action_name: 'QR_STR_SCENE',
        action_info: { scene: { scene_str: scene } },
      }),
    );
    if (typeof body.ticket !== 'string' || !body.ticket) throw new WechatApiError('qrcode/create returned no ticket');
    const base = this.opts.qrImageBase;
    const imageUrl = `${base}${base.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(body.ticket)}`;
    return { imageUrl, expireSeconds: typeof body.expire_seconds === 'number' ? body.expire_seconds : expireSeconds };
  }

  /** Runs `call` with a valid token; if WeChat says the token went stale, fetches a new one and retries once. */
  private async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.accessToken();
    try {
      return await call(token);
    } catch (err) {
      if (!(err instanceof WechatApiError) || err.errcode === undefined || !STALE_TOKEN_ERRCODES.has(err.errcode)) throw err;
      return call(await this.accessToken(token));
    }
  }

  /**
   * The cached token, or one shared fetch for every concurrent caller. `rejected` names a token
   * WeChat refused: it is dropped and replaced through a forced refresh, which WeChat rate-limits,
   * so it is only used after such a refusal.
   */
  private async accessToken(rejected?: string): Promise<string> {
    if (rejected !== undefined && this.cached?.token === rejected) this.cached = undefined;
    const fresh = this.freshCached();
    if (fresh !== undefined) return fresh;
    const force = rejected !== undefined;
    if (force && this.inflight && !this.inflight.forced) {
      // A plain fetch may hand back the very token that was just refused; let it finish, then decide.
      const token = await this.inflight.promise.catch(() => undefined);
      if (token !== undefined && token !== rejected) return token;
      const refreshed = this.freshCached();
      if (refreshed !== undefined && refreshed !== rejected) return refreshed;
    }
    const flight = this.inflight && (this.inflight.forced || !force) ? this.inflight : this.startTokenFetch(force);
    return flight.promise;
  }

  private freshCached(): string | undefined {
    return this.cached && this.cached.expiresAt - this.now() > REFRESH_MARGIN_MS ? this.cached.token : undefined;
  }

  private startTokenFetch(force: boolean) {
    const flight = {
      forced: force,
      promise: this.fetchToken(force).finally(() => {
        if (this.inflight === flight) this.inflight = undefined;
      }),
    };
    this.inflight = flight;
    return flight;
  }

  private async fetchToken(force: boolean): Promise<string> {
    const body = await this.post<{ access_token?: unknown; expires_in?: unknown }>('/cgi-bin/stable_token', {
      grant_type: 'client_credential',
      appid: this.opts.appId,
      secret: this.opts.appSecret,
      force_refresh: force,
    });
    const { access_token: token, expires_in: expiresIn } = body;
    if (typeof token !== 'string' || !token || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
      throw new WechatApiError('stable_token returned no access_token');
    }
    this.cached = { token, expiresAt: this.now() + expiresIn * 1000 };
    return token;
  }

  private async post<T extends object>(path: string, payload: unknown): Promise<T & WechatErrorBody> {
    const endpoint = path.split('?')[0];
    let res: Response;
    try {
      res = await fetch(`${this.apiBase}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      // The URL carries the access token; keep it out of the message.
      throw new WechatApiError(`${endpoint} request failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok) throw new WechatApiError(`${endpoint} answered HTTP ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new WechatApiError(`${endpoint} answered with invalid JSON`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new WechatApiError(`${endpoint} answered with a non-object`);
    const { errcode, errmsg } = body as WechatErrorBody;
    // Successful calls either omit errcode or send 0.
    if (errcode !== undefined && errcode !== 0) {
      throw new WechatApiError(`${endpoint} failed: ${errcode} ${typeof errmsg === 'string' ? errmsg : ''}`.trim(), errcode);
    }
    return body as T & WechatErrorBody;
  }
}
