import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { startS3Standin, type S3Standin } from '../../test/standins/s3.js';
import { LocalStorage } from './local.js';
import { S3Error, S3Storage, type S3StorageOptions } from './s3.js';
import type { Storage } from './types.js';

interface Harness {
  storage: Storage;
  /** Whether the backend holds a committed object under this key. */
  stored(key: string): boolean;
  /** Spool / partial files the writers left behind. */
  leftovers(): string[];
  publicUrlOf(key: string): string;
  close(): Promise<void>;
}

interface Case {
  name: Storage['name'];
  start(): Promise<Harness>;
}

const CREDS = { accessKeyId: 'AKIASTANDINKEYID0001', secretAccessKey: 'standin/secret+key=abc', region: 'cn-hangzhou', bucket: 'inkstone-test' };

function listRecursive(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

const cases: Case[] = [
  {
    name: 'local',
    async start() {
      const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-storage-local-'));
      const storage = new LocalStorage(dir);
      return {
        storage,
        stored: (key) => existsSync(path.join(storage.root, key)),
        leftovers: () => listRecursive(storage.root).filter((f) => f.endsWith('.part')),
        publicUrlOf: (key) => `/uploads/${key.slice('public/'.length)}`,
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3',
    async start() {
      const standin = await startS3Standin(CREDS);
      const spool = mkdtempSync(path.join(tmpdir(), 'inkstone-storage-s3-'));
      const storage = new S3Storage({ ...CREDS, endpoint: standin.url, tmpDir: spool });
      return {
        storage,
        stored: (key) => standin.objects.has(key),
        leftovers: () => listRecursive(spool),
        publicUrlOf: (key) => `${standin.url}/${CREDS.bucket}/${key}`,
        close: async () => {
          await standin.close();
          rmSync(spool, { recursive: true, force: true });
        },
      };
    },
  },
];

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function put(storage: Storage, key: string, data: Buffer, chunkSize = 64 * 1024) {
  const w = await storage.writer(key);
  for (let i = 0; i < data.length; i += chunkSize) await w.write(data.subarray(i, i + chunkSize));
  await w.commit();
}

/** 5 MB that is not one repeated byte, so misordered or dropped chunks cannot compare equal. */
function pattern(bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) buf.writeUInt32LE((i * 2654435761) >>> 0, i);
  return buf;
}

describe.each(cases)('storage contract: $name', ({ start }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.close());

  it('streams a 5 MB object written in 64 KB chunks and reads back the same bytes', async () => {
    const key = 'public/images/big-5mb.png';
    const data = pattern(5 * 1024 * 1024);
    const w = await h.storage.writer(key);
    for (let i = 0; i < data.length; i += 64 * 1024) await w.write(data.subarray(i, i + 64 * 1024));
    expect(h.stored(key)).toBe(false); // invisible until committed
    await w.commit();
    expect(h.stored(key)).toBe(true);
    expect(h.leftovers()).toEqual([]);
    const back = await readAll(h.storage.read(key));
    expect(back.length).toBe(data.length);
    expect(back.equals(data)).toBe(true);
  });

  it('round-trips an empty object and replaces an existing one', async () => {
    const key = 'private/quote/7/replace.txt';
    await put(h.storage, key, Buffer.alloc(0));
    expect((await readAll(h.storage.read(key))).length).toBe(0);
    await put(h.storage, key, Buffer.from('第二版 second version', 'utf8'));
    expect((await readAll(h.storage.read(key))).toString('utf8')).toBe('第二版 second version');
  });

  it('abort leaves nothing behind, and is safe to repeat', async () => {
    const key = 'public/images/aborted.png';
    const w = await h.storage.writer(key);
    await w.write(Buffer.from('partial'));
    await w.write(Buffer.from(' upload'));
    await w.abort();
    await w.abort();
    expect(h.stored(key)).toBe(false);
    expect(h.leftovers()).toEqual([]);
    await expect(readAll(h.storage.read(key))).rejects.toThrow();
  });

  // The spool file is opened asynchronously; an abort that lands before the open completes must still leave nothing.
  it('abort straight after opening a writer leaves nothing behind, however quickly it comes', async () => {
    await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const w = await h.storage.writer(`public/images/quick-abort-${i}.png`);
        if (i % 2) await w.write(Buffer.from('x'));
        await w.abort();
      }),
    );
    expect(h.leftovers()).toEqual([]);
  });

  it('delete removes an object; deleting a missing key is not an error', async () => {
    const key = 'private/quote/9/to-delete.pdf';
    await put(h.storage, key, Buffer.from('%PDF-1.4 test'));
    expect(h.stored(key)).toBe(true);
    await h.storage.delete(key);
    expect(h.stored(key)).toBe(false);
    await expect(readAll(h.storage.read(key))).rejects.toThrow();
    await expect(h.storage.delete(key)).resolves.toBeUndefined();
  });

  it('reading a missing key errors the stream', async () => {
    await expect(readAll(h.storage.read('public/images/never-written.png'))).rejects.toThrow();
  });

  it('gives browser URLs for public keys only', () => {
    const key = 'public/images/0b7f-uuid.webp';
    expect(h.storage.publicUrl(key)).toBe(h.publicUrlOf(key));
    expect(() => h.storage.publicUrl('private/quote/1/a.pdf')).toThrow(/not a public key/);
  });

  // isValidKey admits only [A-Za-z0-9_./-] after the prefix: the services generate uuid names, and the
  // user's file name lives in the database. So the awkward characters to prove are dots, dashes, underscores, depth.
  it('round-trips keys with dots, dashes, underscores and nested folders', async () => {
    for (const key of ['public/images/a-b_c.d.e.png', 'private/quote/42/sub.dir/x-y_z.v2.docx', 'public/x']) {
      await put(h.storage, key, Buffer.from(key));
      expect((await readAll(h.storage.read(key))).toString()).toBe(key);
    }
  });

  it('refuses keys outside public/ and private/, traversal, spaces and non-ASCII', async () => {
    for (const key of ['images/a.png', 'public/../private/a.pdf', 'public/图片.png', 'public/a b.png']) {
      await expect(h.storage.writer(key)).rejects.toThrow(/invalid storage key/);
    }
    expect(h.leftovers()).toEqual([]);
  });
});

describe('s3 adapter against the stand-in', () => {
  let standin: S3Standin;
  let spool: string;
  const make = (overrides: Partial<S3StorageOptions> = {}) => new S3Storage({ ...CREDS, endpoint: standin.url, tmpDir: spool, ...overrides });
  beforeAll(async () => {
    standin = await startS3Standin(CREDS);
    spool = mkdtempSync(path.join(tmpdir(), 'inkstone-storage-s3-'));
  });
  afterAll(async () => {
    await standin.close();
    rmSync(spool, { recursive: true, force: true });
  });

  const refusal = async (p: Promise<unknown>): Promise<S3Error> => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(S3Error);
    return err as S3Error;
  };

  it('uploads with a declared length, an unsigned payload and a Content-Type from the extension', async () => {
    await put(make(), 'public/images/typed.png', Buffer.from('png bytes'));
    const last = standin.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'PUT', key: 'public/images/typed.png' });
    expect(last.headers['content-length']).toBe('9');
    expect(last.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(last.headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=${CREDS.accessKeyId}/\\d{8}/cn-hangzhou/s3/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(standin.contentTypes.get('public/images/typed.png')).toBe('image/png');
  });

  it('a wrong secret is refused with SignatureDoesNotMatch, and the spool is still cleaned', async () => {
    const err = await refusal(put(make({ secretAccessKey: 'not-the-secret' }), 'public/images/forged.png', Buffer.from('x')));
    expect(err.code).toBe('SignatureDoesNotMatch');
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/SignatureDoesNotMatch/);
    expect(standin.objects.has('public/images/forged.png')).toBe(false);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('an unknown key id is refused with InvalidAccessKeyId', async () => {
    const err = await refusal(make({ accessKeyId: 'AKIANOSUCHKEY' }).delete('public/images/x.png'));
    expect(err.code).toBe('InvalidAccessKeyId');
  });

  it('another bucket is refused with NoSuchBucket; a wrong region is refused too', async () => {
    expect((await refusal(make({ bucket: 'someone-else' }).delete('public/images/x.png'))).code).toBe('NoSuchBucket');
    expect((await refusal(make({ region: 'us-west-2' }).delete('public/images/x.png'))).code).toBe('AuthorizationHeaderMalformed');
  });

  it('a missing object errors the read stream with NoSuchKey and a clear message', async () => {
    const err = await refusal(readAll(make().read('private/quote/1/missing.pdf')));
    expect(err.code).toBe('NoSuchKey');
    expect(err.message).toMatch(/not found: private\/quote\/1\/missing\.pdf/);
  });

  it('an unreachable endpoint fails the commit with a clear message', async () => {
    // A port that was just free (fetch blocks well-known ports such as 1 outright, with a different error).
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as import('node:net').AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const w = await make({ endpoint: `http://127.0.0.1:${port}` }).writer('public/images/offline.png');
    await w.write(Buffer.from('x'));
    await expect(w.commit()).rejects.toThrow(/unreachable \(ECONNREFUSED\)/);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('publicUrl: path style by default, virtual-hosted when asked, publicBaseUrl when set', () => {
    expect(make().publicUrl('public/images/a.png')).toBe(`${standin.url}/${CREDS.bucket}/public/images/a.png`);
    const oss = new S3Storage({ ...CREDS, endpoint: 'https://oss-cn-hangzhou.aliyuncs.com', forcePathStyle: false });
    expect(oss.publicUrl('public/images/a.png')).toBe('https://inkstone-test.oss-cn-hangzhou.aliyuncs.com/public/images/a.png');
    const cdn = make({ publicBaseUrl: 'https://img.example.com/' });
    expect(cdn.publicUrl('public/images/a.png')).toBe('https://img.example.com/public/images/a.png');
  });

  it('virtual-hosted style signs and sends the bucket host', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    try {
      await new S3Storage({ ...CREDS, endpoint: 'https://cos.ap-guangzhou.myqcloud.com', forcePathStyle: false }).delete('public/images/a.png');
      const [url, init] = spy.mock.calls[0] ?? [];
      expect(String(url)).toBe('https://inkstone-test.cos.ap-guangzhou.myqcloud.com/public/images/a.png');
      const headers = init?.headers as Record<string, string>;
      expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('host');
      expect(headers.Authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date');
    } finally {
      spy.mockRestore();
    }
  });
});

/** Sends exactly these bytes and headers (Host included, which fetch would not allow). */
function raw(url: string, method: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// These guard the guard: if the stand-in accepted anything, the suites above would prove nothing.
describe('s3 stand-in verifies what it is sent', () => {
  it("accepts AWS's published SigV4 GET Object example (and only with the right secret)", async () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html — "Example: GET Object".
    // Virtual-hosted, so this path-style stand-in reads the key as a bucket: passing auth shows as NoSuchBucket.
    const aws = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
    const headers = {
      host: 'examplebucket.s3.amazonaws.com',
      range: 'bytes=0-9',
      'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'x-amz-date': '20130524T000000Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    };
    const now = () => Date.UTC(2013, 4, 24, 0, 5);
    const good = await startS3Standin({ ...aws, bucket: 'examplebucket', now });
    const bad = await startS3Standin({ ...aws, secretAccessKey: 'another-secret', bucket: 'examplebucket', now });
    try {
      const ok = await raw(`${good.url}/test.txt`, 'GET', headers);
      expect(ok.text).toContain('<Code>NoSuchBucket</Code>');
      const refused = await raw(`${bad.url}/test.txt`, 'GET', headers);
      expect(refused.text).toContain('<Code>SignatureDoesNotMatch</Code>');
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('refuses a replay to another key and a request outside the 15-minute window; accepts the unmodified copy', async () => {
    let skew = 0;
    const standin = await startS3Standin({ ...CREDS, now: () => Date.now() + skew });
    const storage = new S3Storage({ ...CREDS, endpoint: standin.url });
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      await put(storage, 'public/images/kept.png', Buffer.from('keep me'));
      await put(storage, 'public/images/victim.png', Buffer.from('not yours'));
      await storage.delete('public/images/kept.png');
      const [url, init] = spy.mock.calls.at(-1) ?? [];
      spy.mockRestore();
      const headers = { ...(init?.headers as Record<string, string>), host: new URL(String(url)).host };

      const retarget = await raw(String(url).replace('kept.png', 'victim.png'), 'DELETE', headers);
      expect(retarget.status).toBe(403);
      expect(retarget.text).toContain('<Code>SignatureDoesNotMatch</Code>');
      expect(standin.objects.has('public/images/victim.png')).toBe(true);

      skew = 16 * 60 * 1000;
      const late = await raw(String(url), 'DELETE', headers);
      expect(late.text).toContain('<Code>RequestTimeTooSkewed</Code>');
      skew = 0;
      expect((await raw(String(url), 'DELETE', headers)).status).toBe(204);

      const unsigned = await raw(String(url), 'DELETE', { ...headers, 'x-amz-meta-extra': '1' });
      expect(unsigned.status).toBe(403);
    } finally {
      spy.mockRestore();
      await standin.close();
    }
  });
});

describe('storage configuration', () => {
  it('names the missing S3 variables at start-up, and builds S3Storage when complete', async () => {
    const { loadConfig } = await import('../../config.js');
    const { createStorage } = await import('./index.js');
    expect(() => loadConfig({ STORAGE_PROVIDER: 's3', S3_BUCKET: 'b' })).toThrow(/S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required when STORAGE_PROVIDER=s3/);
    const cfg = loadConfig({
      STORAGE_PROVIDER: 's3',
      S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
      S3_REGION: 'oss-cn-hangzhou',
      S3_BUCKET: 'inkstone',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'false',
      S3_PUBLIC_BASE_URL: '',
    });
    expect(cfg).toMatchObject({ S3_FORCE_PATH_STYLE: false, S3_PUBLIC_BASE_URL: undefined });
    const storage = createStorage(cfg);
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.publicUrl('public/images/a.png')).toBe('https://inkstone.oss-cn-hangzhou.aliyuncs.com/public/images/a.png');
    expect(loadConfig({})).toMatchObject({ STORAGE_PROVIDER: 'local', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
  });
});
