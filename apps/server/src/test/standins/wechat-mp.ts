import { createHash, randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for the WeChat Official Account platform: the API side (`stable_token`,
 * `qrcode/create`, `showqrcode`) and the push side (`scan()` plays WeChat's server calling our
 * event URL). Signatures are computed here with their own code, so a bug in the adapter's
 * verification cannot hide behind a shared helper.
 */

export interface WechatMpStandinOptions {
  appId: string;
  appSecret: string;
  /** The Token both sides share for push signatures. */
  token: string;
}

export interface ScanParams {
  scene: string;
  openid: string;
  /** A follower's scan is a SCAN event; anyone else follows first and gets subscribe + qrscene_. */
  following: boolean;
  callbackUrl: string;
  badSignature?: boolean;
  timestampOffsetSec?: number;
}

export interface PushParams {
  callbackUrl: string;
  xml: string;
  openid?: string;
  badSignature?: boolean;
  timestampOffsetSec?: number;
  contentType?: string;
}

export interface WechatMpStandin {
  url: string;
  /** Tokens minted (a fresh token, not the current one handed out again). */
  readonly tokensIssued: number;
  /** Every stable_token request, whether it minted a token or not. */
  readonly tokenRequests: number;
  qrcodes: Array<{ scene: string; ticket: string }>;
  /** Invalidates the current access token, as happens when another client force-refreshes it. */
  expireToken(): void;
  scan(params: ScanParams): Promise<{ status: number; body: string }>;
  /** Pushes any XML message, signed like WeChat does. */
  push(params: PushParams): Promise<{ status: number; body: string }>;
  /** The one-off server URL check WeChat makes when the URL is saved in the admin console. */
  verifyUrl(params: {
    callbackUrl: string;
    echostr: string;
    badSignature?: boolean;
    timestampOffsetSec?: number;
  }): Promise<{ status: number; body: string; contentType: string | null }>;
  close(): Promise<void>;
}

const TOKEN_TTL_SECONDS = 7200;
const MAX_QR_EXPIRE_SECONDS = 2_592_000;
// Smallest valid PNG (1x1 transparent), so the image URL resolves to something an <img> accepts.
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const sha1Hex = (s: string) => createHash('sha1').update(s).digest('hex');
const cdata = (s: string) => `<![CDATA[${s}]]>`;

export async function startWechatMpStandin(opts: WechatMpStandinOptions): Promise<WechatMpStandin> {
  let current: { token: string; expiresAt: number } | null = null;
  let tokensIssued = 0;
  let tokenRequests = 0;
  const qrcodes: WechatMpStandin['qrcodes'] = [];
  const tickets = new Map<string, { scene: string; expiresAt: number }>();
  const accountId = `gh_${randomBytes(6).toString('hex')}`;

  const mint = () => {
    tokensIssued += 1;
    current = { token: randomBytes(48).toString('base64url'), expiresAt: Date.now() + TOKEN_TTL_SECONDS * 1000 };
    return current;
  };

  const stableToken = (body: Record<string, unknown>) => {
    tokenRequests += 1;
    if (body.grant_type !== 'client_credential') return { errcode: 40002, errmsg: 'invalid grant_type' };
    if (typeof body.appid !== 'string' || body.appid !== opts.appId) return { errcode: 40013, errmsg: 'invalid appid' };
    if (typeof body.secret !== 'string' || body.secret !== opts.appSecret) return { errcode: 40125, errmsg: 'invalid appsecret' };
    if (body.force_refresh !== undefined && typeof body.force_refresh !== 'boolean') return { errcode: 40097, errmsg: 'invalid args' };
    // Stable-token semantics: without force_refresh the live token is handed out again; forcing replaces it.
    const live = current && current.expiresAt > Date.now() && body.force_refresh !== true ? current : mint();
    return { access_token: live.token, expires_in: Math.floor((live.expiresAt - Date.now()) / 1000) };
  };

  const createQr = (accessToken: string | null, body: Record<string, unknown>) => {
    if (!accessToken) return { errcode: 41001, errmsg: 'access_token missing' };
    if (!current || accessToken !== current.token) return { errcode: 40001, errmsg: 'invalid credential' };
    if (current.expiresAt <= Date.now()) return { errcode: 42001, errmsg: 'access_token expired' };
    if (body.action_name !== 'QR_STR_SCENE') return { errcode: 40097, errmsg: 'invalid args: action_name' };
    const sceneStr = (body.action_info as { scene?: { scene_str?: unknown } } | undefined)?.scene?.scene_str;
    if (typeof sceneStr !== 'string' || sceneStr.length < 1 || sceneStr.length > 64) return { errcode: 40097, errmsg: 'invalid args: scene_str' };
    const requested = body.expire_seconds === undefined ? 30 : body.expire_seconds;
    if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 1) return { errcode: 40097, errmsg: 'invalid args: expire_seconds' };
    const expireSeconds = Math.min(requested, MAX_QR_EXPIRE_SECONDS);
    // Real tickets are standard base64 with + / =, which the image URL must escape.
    const ticket = `gQ${randomBytes(45).toString('base64')}`;
    qrcodes.push({ scene: sceneStr, ticket });
    tickets.set(ticket, { scene: sceneStr, expiresAt: Date.now() + expireSeconds * 1000 });
    return { ticket, expire_seconds: expireSeconds, url: `http://weixin.qq.com/q/${randomBytes(12).toString('base64url')}` };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'GET' && url.pathname === '/cgi-bin/showqrcode') {
        const entry = tickets.get(url.searchParams.get('ticket') ?? '');
        if (!entry || entry.expiresAt <= Date.now()) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('ticket not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'image/jpg' });
        res.end(PNG_1X1);
        return;
      }
      if (req.method !== 'POST' || (url.pathname !== '/cgi-bin/stable_token' && url.pathname !== '/cgi-bin/qrcode/create')) {
        json(404, { errcode: 404, errmsg: 'not found' });
        return;
      }
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        // WeChat answers API errors with HTTP 200 and an errcode.
        json(200, { errcode: 47001, errmsg: 'data format error' });
        return;
      }
      if (url.pathname === '/cgi-bin/stable_token') json(200, stableToken(body));
      else json(200, createQr(url.searchParams.get('access_token'), body));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const signedQuery = (badSignature: boolean | undefined, timestampOffsetSec: number | undefined) => {
    const timestamp = String(Math.floor(Date.now() / 1000) + (timestampOffsetSec ?? 0));
    const nonce = String(randomInt(100_000_000, 2_000_000_000));
    let signature = sha1Hex([opts.token, timestamp, nonce].sort().join(''));
    // A forger without the token: right shape, wrong key.
    if (badSignature) signature = sha1Hex([`${opts.token}-forged`, timestamp, nonce].sort().join(''));
    return new URLSearchParams({ signature, timestamp, nonce });
  };

  const push: WechatMpStandin['push'] = async (p) => {
    const query = signedQuery(p.badSignature, p.timestampOffsetSec);
    if (p.openid) query.set('openid', p.openid);
    const target = new URL(p.callbackUrl);
    for (const [k, v] of query) target.searchParams.set(k, v);
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': p.contentType ?? 'text/xml' },
      body: p.xml,
      signal: AbortSignal.timeout(5000),
    });
    return { status: res.status, body: await res.text() };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    get tokensIssued() {
      return tokensIssued;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    qrcodes,
    expireToken() {
      current = null;
    },
    async scan(p) {
      const qr = qrcodes.findLast((q) => q.scene === p.scene);
      if (!qr) throw new Error(`no QR code was created for scene ${p.scene}`);
      const [event, key] = p.following ? ['SCAN', p.scene] : ['subscribe', `qrscene_${p.scene}`];
      const xml =
        `<xml><ToUserName>${cdata(accountId)}</ToUserName><FromUserName>${cdata(p.openid)}</FromUserName>` +
        `<CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType>${cdata('event')}</MsgType>` +
        `<Event>${cdata(event)}</Event><EventKey>${cdata(key)}</EventKey><Ticket>${cdata(qr.ticket)}</Ticket></xml>`;
      return push({ callbackUrl: p.callbackUrl, xml, openid: p.openid, badSignature: p.badSignature, timestampOffsetSec: p.timestampOffsetSec });
    },
    push,
    async verifyUrl(p) {
      const target = new URL(p.callbackUrl);
      for (const [k, v] of signedQuery(p.badSignature, p.timestampOffsetSec)) target.searchParams.set(k, v);
      target.searchParams.set('echostr', p.echostr);
      const res = await fetch(target, { signal: AbortSignal.timeout(5000) });
      return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
