import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { SafeFetch, isPublicAddress } from './safe-fetch.js';
import { FetchRefusedError } from './types.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A loopback server that records every request it receives. */
async function server(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    hits,
    port,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

async function refusal(p: Promise<unknown>): Promise<FetchRefusedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchRefusedError);
  return err as FetchRefusedError;
}

describe('address ranges', () => {
  it('only globally routable unicast addresses are public', () => {
    for (const a of ['8.8.8.8', '114.114.114.114', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
    const inward = [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.1.1',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not-an-ip',
    ];
    for (const a of inward) expect(isPublicAddress(a), a).toBe(false);
  });
});

describe('SafeFetch', () => {
  let target: Awaited<ReturnType<typeof server>>;
  let relay: Awaited<ReturnType<typeof server>>;
  const product = new SafeFetch();

  beforeAll(async () => {
    // The inward service an attacker wants to reach: never on an allow-list.
    target = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    // A stand-in for a public host (allow-listed for the test), with paths that misbehave in various ways.
    relay = await server((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const to = u.searchParams.get('to');
      if (u.pathname === '/redirect' && to) {
        res.writeHead(302, { location: to });
        return res.end();
      }
      if (u.pathname === '/loop') {
        const n = Number(u.searchParams.get('n') ?? 0);
        res.writeHead(301, { location: `/loop?n=${n + 1}` });
        return res.end();
      }
      if (u.pathname === '/ok.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(PNG);
      }
      if (u.pathname === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html></html>');
      }
      if (u.pathname === '/fake.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
      }
      if (u.pathname === '/huge') {
        // Chunked, no length: the cap must be enforced while streaming. Stops once the client hangs up.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        PNG.copy(chunk);
        let sent = 0;
        const pump = () => {
          while (!res.destroyed && sent < 200 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => relayState.hugeSent.push(sent));
        return pump();
      }
      if (u.pathname === '/declared-huge') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) });
        return res.end(PNG);
      }
      if (u.pathname === '/stall') return; // never answers
      res.writeHead(404).end();
    });
  });
  const relayState = { hugeSent: [] as number[] };
  afterAll(async () => {
    await product.close();
    await target?.close();
    await relay?.close();
  });

  it('the product client refuses loopback, private and metadata addresses written literally, and never connects', async () => {
    const urls = [
      `${target.url}/x.png`,
      `http://localhost:${target.port}/x.png`,
      `http://[::1]:${target.port}/x.png`,
      `http://[::ffff:127.0.0.1]:${target.port}/x.png`,
      `http://0x7f.0.0.1:${target.port}/x.png`,
      `http://2130706433:${target.port}/x.png`,
      `http://0.0.0.0:${target.port}/x.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.1/x.png',
      'http://192.168.1.1/x.png',
      'http://100.100.100.200/latest/meta-data/',
    ];
    for (const u of urls) {
      const err = await refusal(product.image(u));
      expect(err.reason, u).toBe('private_address');
      expect(err.message).toBe('地址指向内网地址，已拒绝');
    }
    expect(target.hits).toHaveLength(0);
  });

  it('refuses names that resolve to our network, checked on the address the socket connects to', async () => {
    const resolving = new SafeFetch({
      resolver: async (host) => {
        if (host === 'inward.example.test') return [{ address: '127.0.0.1', family: 4 }];
        // A rebinding answer: one public, one private address.
        if (host === 'mixed.example.test')
          return [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ];
        return [{ address: '::ffff:10.1.2.3', family: 6 }];
      },
    });
    try {
      for (const name of ['inward.example.test', 'mixed.example.test', 'mapped.example.test']) {
        const err = await refusal(resolving.image(`http://${name}:${target.port}/x.png`));
        expect(err.reason, name).toBe('private_address');
      }
      expect(target.hits).toHaveLength(0);
    } finally {
      await resolving.close();
    }
  });

  it('only http and https', async () => {
    for (const u of ['file:///etc/passwd', 'ftp://example.com/x.png', 'gopher://example.com/', 'data:image/png;base64,AAAA', 'javascript:alert(1)']) {
      expect((await refusal(product.get(u))).reason, u).toBe('scheme');
    }
    expect((await refusal(product.get('not a url'))).reason).toBe('invalid_url');
    expect((await refusal(product.get('http://user:pw@example.com/'))).reason).toBe('invalid_url');
  });

  describe('with an allow-listed stand-in for a public host', () => {
    const client = () => new SafeFetch({ allowHosts: [relay.host], defaults: { timeoutMs: 1500 } });

    it('fetches an image and reports its type from the magic bytes', async () => {
      const c = client();
      try {
        const img = await c.image(`${relay.url}/ok.png`);
        expect(img).toMatchObject({ status: 200, mimeType: 'image/png', ext: 'png', contentType: 'image/png' });
        expect(img.body.equals(PNG)).toBe(true);
      } finally {
        await c.close();
      }
    });

    it('re-validates every redirect hop: a public host cannot bounce the fetch inward', async () => {
      const c = client();
      try {
        for (const to of [`${target.url}/x.png`, `http://localhost:${target.port}/x.png`, 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
          const err = await refusal(c.image(`${relay.url}/redirect?to=${encodeURIComponent(to)}`));
          expect(['private_address', 'scheme'], to).toContain(err.reason);
        }
        expect(target.hits).toHaveLength(0);
        // A relative redirect to an allowed place still works.
        expect((await c.image(`${relay.url}/redirect?to=${encodeURIComponent('/ok.png')}`)).ext).toBe('png');
      } finally {
        await c.close();
      }
    });

    it('follows at most 5 redirects', async () => {
      const c = client();
      try {
        const before = relay.hits.length;
        const err = await refusal(c.get(`${relay.url}/loop`));
        expect(err.reason).toBe('too_many_redirects');
        expect(relay.hits.length - before).toBe(6);
        await expect(c.get(`${relay.url}/loop?n=0`, { maxRedirects: 0 })).rejects.toMatchObject({ reason: 'too_many_redirects' });
      } finally {
        await c.close();
      }
    });

    it('caps the body while streaming and stops reading an endless answer', async () => {
      const c = client();
      try {
        const err = await refusal(c.image(`${relay.url}/huge`, { maxBytes: 1024 * 1024 }));
        expect(err.reason).toBe('too_large');
        expect(err.message).toBe('超过1MB，已拒绝');
        await until(() => relayState.hugeSent.length > 0);
        // The server got at most the cap plus socket buffers out before the client hung up.
        expect(relayState.hugeSent[0]).toBeLessThan(16 * 1024 * 1024);
        expect((await refusal(c.image(`${relay.url}/declared-huge`))).reason).toBe('too_large');
      } finally {
        await c.close();
      }
    });

    it('an image must say image/* and be one by its magic bytes', async () => {
      const c = client();
      try {
        expect((await refusal(c.image(`${relay.url}/html`))).reason).toBe('content_type');
        const fake = await refusal(c.image(`${relay.url}/fake.png`));
        expect(fake.reason).toBe('content_type');
        expect(fake.message).toContain('jpg、png、gif、webp');
        const missing = await refusal(c.image(`${relay.url}/nothing-here.png`));
        expect(missing).toMatchObject({ reason: 'http_status', status: 404, transient: false });
      } finally {
        await c.close();
      }
    });

    it('caps the total time', async () => {
      const c = client();
      try {
        const started = Date.now();
        const err = await refusal(c.get(`${relay.url}/stall`));
        expect(err).toMatchObject({ reason: 'timeout', transient: true });
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await c.close();
      }
    });
  });

  it('the allow-list is refused by configuration in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SAFE_FETCH_ALLOW_HOSTS: '127.0.0.1:8080' })).toThrow(/SAFE_FETCH_ALLOW_HOSTS/);
    expect(loadConfig({ NODE_ENV: 'production' }).SAFE_FETCH_ALLOW_HOSTS).toEqual([]);
    expect(() => loadConfig({ NODE_ENV: 'test', SAFE_FETCH_ALLOW_HOSTS: 'http://x' })).toThrow(/host:port/);
  });
});

async function until(ok: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 20));
  }
}
