import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import aws4 from 'aws4';
import { discardSpool } from './spool.js';
import { isValidKey, type Storage, type StorageWriter } from './types.js';

export interface S3StorageOptions {
  /** Service origin, e.g. `https://oss-cn-hangzhou.aliyuncs.com`, `https://cos.ap-guangzhou.myqcloud.com`, `http://minio:9000`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` (true, the default; MinIO) or `https://bucket.endpoint/key` (false; OSS, COS, AWS). */
  forcePathStyle?: boolean;
  /** Browser base for `public/` keys (a CDN or the bucket's public domain); the key is appended after a `/`. */
  publicBaseUrl?: string;
  /** Where writers spool before upload; os.tmpdir() unless set (tests point it at a private directory). */
  tmpDir?: string;
}

/** An S3 error reply, with the service's `<Code>` (`NoSuchKey`, `SignatureDoesNotMatch`, ...) when it sent one. */
export class S3Error extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

/** S3 URI encoding of one path segment: RFC 3986 unreserved characters stay, every other UTF-8 byte is %XX. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const encodeKey = (key: string) => key.split('/').map(encodeSegment).join('/');

/** Objects are served to browsers straight from the bucket, so they need a real Content-Type. */
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

export const contentTypeFor = (key: string) => CONTENT_TYPES[path.extname(key).slice(1).toLowerCase()] ?? 'application/octet-stream';

const xmlText = (xml: string, tag: string): string | undefined => {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m?.[1]
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
};

/**
 * Any S3-compatible object store (AWS S3, Aliyun OSS's S3 endpoint, Tencent COS, MinIO), spoken over
 * fetch with AWS Signature V4. Writers spool to a temporary file so an upload is never held in memory,
 * then send it in one streamed PUT with a known Content-Length and `UNSIGNED-PAYLOAD` (the body is not
 * hashed, which would mean reading it twice; TLS protects it in transit).
 */
export class S3Storage implements Storage {
  readonly name = 's3' as const;
  private readonly origin: URL;
  private readonly pathStyle: boolean;
  private readonly tmpDir: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.origin = new URL(opts.endpoint);
    this.pathStyle = opts.forcePathStyle ?? true;
    this.tmpDir = opts.tmpDir ?? tmpdir();
  }

  private objectUrl(key: string): URL {
    if (!isValidKey(key)) throw new Error(`invalid storage key ${key}`);
    const base = this.origin.pathname.replace(/\/+$/, '');
    const url = new URL(this.origin.origin);
    if (this.pathStyle) {
      url.pathname = `${base}/${encodeSegment(this.opts.bucket)}/${encodeKey(key)}`;
    } else {
      url.hostname = `${this.opts.bucket}.${url.hostname}`;
      url.pathname = `${base}/${encodeKey(key)}`;
    }
    return url;
  }

  /** Signs and sends one request; the body, when there is one, is streamed. */
  private async send(method: 'PUT' | 'GET' | 'DELETE', key: string, extra: Record<string, string> = {}, body?: Readable): Promise<Response> {
    const url = this.objectUrl(key);
    const signed = aws4.sign(
      {
        service: 's3',
        region: this.opts.region,
        method,
        host: url.host,
        path: url.pathname,
        headers: { ...extra, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { accessKeyId: this.opts.accessKeyId, secretAccessKey: this.opts.secretAccessKey },
    );
    // fetch derives Host from the URL (the same url.host that was signed); it may not be set by hand.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers ?? {})) {
      if (name.toLowerCase() !== 'host' && value !== undefined) headers[name] = String(value);
    }
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if (body) {
      init.body = Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
    try {
      return await fetch(url, init);
    } catch (err) {
      body?.destroy();
      const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
      const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : String(err);
      throw new Error(`S3 ${method} ${key} failed: ${this.origin.host} unreachable (${detail})`, { cause: err });
    }
  }

  private async failure(res: Response, method: string, key: string): Promise<S3Error> {
    const text = await res.text().catch(() => '');
    const code = xmlText(text, 'Code');
    const message = xmlText(text, 'Message');
    if (method === 'GET' && res.status === 404 && (!code || code === 'NoSuchKey')) {
      return new S3Error(`S3 object not found: ${key} (bucket ${this.opts.bucket})`, 'NoSuchKey', 404);
    }
    const what = code ? `${code}${message ? `: ${message}` : ''}` : `HTTP ${res.status}`;
    return new S3Error(`S3 ${method} ${key} refused (${what})`, code, res.status);
  }

  async writer(key: string): Promise<StorageWriter> {
    this.objectUrl(key); // validates the key before anything is spooled
    const tmp = path.join(this.tmpDir, `inkstone-s3-${randomUUID()}.part`);
    const out = createWriteStream(tmp);
    let failed: Error | null = null;
    out.on('error', (err) => {
      failed = err;
    });
    let done = false;
    const discard = () => discardSpool(out, tmp);
    return {
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          if (done) return reject(new Error('storage writer already finished'));
          if (failed) return reject(failed);
          if (out.write(chunk)) resolve();
          else out.once('drain', () => (failed ? reject(failed) : resolve()));
        }),
      commit: async () => {
        if (done) throw new Error('storage writer already finished');
        done = true;
        try {
          await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err || failed ? reject(err ?? failed) : resolve())));
          const { size } = await stat(tmp);
          const res = await this.send('PUT', key, { 'content-length': String(size), 'content-type': contentTypeFor(key) }, createReadStream(tmp));
          if (!res.ok) throw await this.failure(res, 'PUT', key);
          await res.body?.cancel();
        } finally {
          await discard();
        }
      },
      abort: async () => {
        if (done) return;
        done = true;
        await discard();
      },
    };
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.send('GET', key)
      .then(async (res) => {
        if (!res.ok || !res.body) throw await this.failure(res, 'GET', key);
        await pipeline(Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>), out);
      })
      .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
    return out;
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (res.ok) {
      await res.body?.cancel();
      return;
    }
    const err = await this.failure(res, 'DELETE', key);
    // S3 answers 204 for a missing key, some compatibles 404 NoSuchKey: both mean gone. A missing bucket is a misconfiguration.
    if (res.status === 404 && err.code !== 'NoSuchBucket') return;
    throw err;
  }

  publicUrl(key: string): string {
    if (!key.startsWith('public/')) throw new Error('not a public key');
    if (this.opts.publicBaseUrl) return `${this.opts.publicBaseUrl.replace(/\/+$/, '')}/${encodeKey(key)}`;
    return this.objectUrl(key).toString();
  }
}
