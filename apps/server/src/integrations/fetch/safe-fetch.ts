import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { FetchRefusedError, type FetchedBody, type FetchedImage, type SafeFetchOptions, type SafeFetcher } from './types.js';

const MB = 1024 * 1024;
const DEFAULTS = { maxBytes: 10 * MB, timeoutMs: 15_000, maxRedirects: 5 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const IMAGE_TYPES: Record<string, FetchedImage['mimeType']> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** Cloud metadata endpoints, named so that a future widening of the ranges below cannot let them through. */
const METADATA = new Set(['169.254.169.254', '100.100.100.200', 'fd00:ec2::254']);

const refusedPrivate = () => new FetchRefusedError('private_address', '地址指向内网地址，已拒绝');

/**
 * True only for globally routable unicast addresses. Everything else is refused: loopback, RFC 1918, link-local
 * (metadata), CGNAT, unique-local IPv6, multicast, broadcast, unspecified, documentation and reserved ranges, and
 * the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) unless the embedded address is public.
 */
export function isPublicAddress(address: string): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(ip.toString())) return false;
  return ip.range() === 'unicast';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Name resolution, every address of the name. */
export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: family === 4 || family === 6 ? family : 0 });

/**
 * `lookup` for the connector: resolves the name, then refuses the whole answer if any address is not public, so a
 * name that resolves to both a public and a private address (DNS rebinding) cannot be steered inward. The socket
 * connects to exactly the addresses checked here; nothing resolves the name a second time.
 */
function guardedLookup(resolve: Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, typeof options.family === 'number' ? options.family : 0).then(
      (addresses) => {
        if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address))) return callback(refusedPrivate(), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

export interface SafeFetchSettings {
  /**
   * `host:port` origins allowed even though they resolve to our own network. For tests on loopback stand-ins only:
   * the product builds this client with an empty list, and configuration refuses a non-empty one in production.
   */
  allowHosts?: string[];
  defaults?: Partial<typeof DEFAULTS>;
  userAgent?: string;
  /** Tests make names resolve to chosen addresses; the system resolver otherwise. */
  resolver?: Resolver;
}

/** The one client for user-supplied URLs. */
export class SafeFetch implements SafeFetcher {
  private readonly guarded: Agent;
  /** Only for allow-listed test origins; never sees any other URL. */
  private readonly open: Agent | null;
  private readonly allow: Set<string>;
  private readonly defaults: typeof DEFAULTS;
  private readonly userAgent: string;

  constructor(settings: SafeFetchSettings = {}) {
    this.allow = new Set((settings.allowHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean));
    this.defaults = { ...DEFAULTS, ...settings.defaults };
    this.userAgent = settings.userAgent ?? 'Mozilla/5.0 (compatible; Inkstone/1.0)';
    // A kept-alive socket stays bound to the address checked when it connected, so reuse is safe.
    this.guarded = new Agent({ connect: { lookup: guardedLookup(settings.resolver ?? systemResolver), timeout: 10_000 } });
    this.open = this.allow.size ? new Agent() : null;
  }

  async get(url: string, opts: SafeFetchOptions = {}): Promise<FetchedBody> {
    const maxBytes = opts.maxBytes ?? this.defaults.maxBytes;
    const maxRedirects = opts.maxRedirects ?? this.defaults.maxRedirects;
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? this.defaults.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let current = this.parse(url);
    for (let hop = 0; ; hop++) {
      const dispatcher = this.dispatcherFor(current);
      let res: Dispatcher.ResponseData;
      try {
        res = await request(current, {
          method: 'GET',
          dispatcher,
          signal,
          headers: { 'user-agent': this.userAgent, accept: '*/*', ...opts.headers },
        });
      } catch (err) {
        throw this.translate(err, signal);
      }
      if (REDIRECTS.has(res.statusCode)) {
        discard(res.body);
        const location = res.headers.location;
        const target = Array.isArray(location) ? location[0] : location;
        if (!target) throw new FetchRefusedError('http_status', `无法下载（HTTP ${res.statusCode}）`, res.statusCode);
        if (hop + 1 > maxRedirects) throw new FetchRefusedError('too_many_redirects', `地址重定向超过${maxRedirects}次，已拒绝`);
        current = this.parse(target, current);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode > 299) {
        discard(res.body);
        throw new FetchRefusedError('http_status', `无法下载（HTTP ${res.statusCode}）`, res.statusCode);
      }
      const rawType = res.headers['content-type'];
      const contentType = ((Array.isArray(rawType) ? rawType[0] : rawType) ?? '').split(';')[0]!.trim().toLowerCase();
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        throw tooLarge(maxBytes);
      }
      const body = await this.readCapped(res.body, maxBytes, signal);
      return { url: current.toString(), status: res.statusCode, contentType, body };
    }
  }

  async image(url: string, opts: SafeFetchOptions = {}): Promise<FetchedImage> {
    const res = await this.get(url, { maxBytes: 10 * MB, ...opts, headers: { accept: 'image/*', ...opts.headers } });
    if (!res.contentType.startsWith('image/')) throw new FetchRefusedError('content_type', '地址返回的不是图片，已拒绝');
    const kind = await imageKind(res.body);
    if (!kind) throw new FetchRefusedError('content_type', '不是支持的格式（jpg、png、gif、webp），已拒绝');
    return { ...res, ...kind };
  }

  check(url: string): FetchRefusedError | null {
    try {
      this.parse(url);
      return null;
    } catch (err) {
      if (err instanceof FetchRefusedError) return err;
      throw err;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.guarded.close(), this.open?.close()]);
  }

  /** Only http(s); literal addresses are checked here because the connector does no lookup for them. */
  private parse(raw: string, base?: URL): URL {
    let u: URL;
    try {
      u = new URL(raw, base);
    } catch {
      throw new FetchRefusedError('invalid_url', '地址无效');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new FetchRefusedError('scheme', '地址只支持 http 或 https，已拒绝');
    if (u.username || u.password) throw new FetchRefusedError('invalid_url', '地址不能包含用户名或密码');
    if (this.allowed(u)) return u;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !isPublicAddress(host)) throw refusedPrivate();
    // Names that only ever mean this machine; the resolver would say so too, this saves the lookup.
    if (/^(localhost|.*\.localhost|localhost\.localdomain)\.?$/i.test(host)) throw refusedPrivate();
    return u;
  }

  private allowed(u: URL): boolean {
    if (!this.allow.size) return false;
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return this.allow.has(`${u.hostname.toLowerCase()}:${port}`);
  }

  private dispatcherFor(u: URL): Dispatcher {
    return this.allowed(u) && this.open ? this.open : this.guarded;
  }

  private async readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, signal: AbortSignal): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          // Stop reading now: the rest of an oversize answer is never pulled off the socket.
          discard(body);
          throw tooLarge(maxBytes);
        }
        chunks.push(chunk);
      }
    } catch (err) {
      throw this.translate(err, signal);
    }
    return Buffer.concat(chunks, size);
  }

  private translate(err: unknown, signal: AbortSignal): FetchRefusedError {
    for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
      if (e instanceof FetchRefusedError) return e;
    }
    if (signal.aborted) return new FetchRefusedError('timeout', '下载超时');
    if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError || err instanceof undiciErrors.ConnectTimeoutError) {
      return new FetchRefusedError('timeout', '下载超时');
    }
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new FetchRefusedError('dns', '地址的域名无法解析');
    return new FetchRefusedError('network', '下载失败');
  }
}

/** Drops an unread body; undici reports the abort as an error event, which nobody needs to hear. */
function discard(body: Dispatcher.ResponseData['body']) {
  body.on('error', () => undefined);
  body.destroy();
}

const tooLarge = (maxBytes: number) => new FetchRefusedError('too_large', `超过${maxBytes >= MB ? `${Math.round(maxBytes / MB)}MB` : `${Math.ceil(maxBytes / 1024)}KB`}，已拒绝`);

/** png/jpeg/gif/webp by magic bytes, or null: the header alone is never trusted. */
export async function imageKind(buf: Buffer): Promise<{ mimeType: FetchedImage['mimeType']; ext: FetchedImage['ext'] } | null> {
  // file-type is loaded with the first file it sniffs, not at start-up.
  const { fileTypeFromBuffer } = await import('file-type');
  const ft = await fileTypeFromBuffer(buf);
  const mimeType = ft ? IMAGE_TYPES[ft.ext] : undefined;
  return mimeType ? { mimeType, ext: ft!.ext as FetchedImage['ext'] } : null;
}
