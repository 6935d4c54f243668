import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTelemetry, isIpAddress, parseSentryDsn, startTelemetry } from './telemetry';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local stand-in for the three services: Sentry's envelope endpoint (it checks the key and the
 * envelope as the real ingest does: 403 for a wrong key, 400 for a malformed envelope), a monitoring
 * endpoint, an IP lookup (JSON and text), and a route that never answers.
 */
function startStandin() {
  const seen: Seen[] = [];
  const accepted: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const s: Seen = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      // Never answers. Not recorded: an abort can beat the request to the server, so arrival is not the point.
      if (u.pathname === '/hang') return;
      seen.push(s);
      if (u.pathname.startsWith('/sentry/api/')) {
        if (u.searchParams.get('sentry_key') !== 'abc123' || u.searchParams.get('sentry_version') !== '7') return void res.writeHead(403).end();
        try {
          const [header, item, payload] = s.body.split('\n').map((l) => (l ? (JSON.parse(l) as Record<string, unknown>) : null));
          if (!header?.event_id || item?.type !== 'event' || payload?.event_id !== header.event_id) throw new Error('bad envelope');
          accepted.push(header.event_id);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: header.event_id }));
        } catch {
          res.writeHead(400).end();
        }
        return;
      }
      if (u.pathname === '/monitor') return void res.writeHead(200).end('ok');
      if (u.pathname === '/ip.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ip":"203.0.113.7"}');
      if (u.pathname === '/ip.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('2001:db8::1\n');
      if (u.pathname === '/ip.bad') return void res.writeHead(200).end('<html>not an ip</html>');
      res.writeHead(404).end();
    });
  });
  return { server, seen, accepted };
}

let standin: ReturnType<typeof startStandin>;
let base = '';
beforeAll(async () => {
  standin = startStandin();
  await new Promise<void>((r) => standin.server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(standin.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  standin.server.closeAllConnections();
  await new Promise((r) => (standin.server as Server).close(r));
});
beforeEach(() => {
  standin.seen.length = 0;
  standin.accepted.length = 0;
});

const boom = () => {
  const e = new TypeError('x is undefined');
  e.stack = 'TypeError: x is undefined\n    at render (https://app.example/assets/index.js:1:200)';
  return e;
};

describe('telemetry adapters: off by default', () => {
  it('sends nothing and looks nothing up without configuration', async () => {
    const t = createTelemetry({});
    expect(t.active).toEqual({ sentry: false, monitor: false, ipLookup: false });
    await t.reportError({ error: boom(), url: 'https://app.example/' });
    expect(await t.lookupIp()).toBeNull();
    expect(standin.seen).toHaveLength(0);
  });

  it('a DSN that is not one keeps Sentry off', () => {
    expect(parseSentryDsn('not a dsn')).toBeNull();
    expect(parseSentryDsn('https://sentry.example/42')).toBeNull();
    expect(createTelemetry({ sentryDsn: 'ftp://k@host/1' }).active.sentry).toBe(false);
  });
});

describe('Sentry when a DSN is set', () => {
  it('POSTs an envelope the ingest accepts, with the error, full trace sampling and no secret', async () => {
    const t = createTelemetry({ sentryDsn: `${base.replace('http://', 'http://abc123@')}/sentry/42`, environment: 'test' });
    expect(t.active.sentry).toBe(true);
    await t.reportError({ error: boom(), url: 'https://app.example/editor?id=1', userId: 7 });
    expect(standin.seen).toHaveLength(1);
    const req = standin.seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/sentry/api/42/envelope/');
    const [header, item, event] = req.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(header).toMatchObject({ event_id: expect.stringMatching(/^[0-9a-f]{32}$/), dsn: expect.stringContaining('/sentry/42') });
    expect(item).toEqual({ type: 'event', content_type: 'application/json' });
    expect(event).toMatchObject({
      event_id: header!.event_id,
      level: 'error',
      platform: 'javascript',
      environment: 'test',
      release: 'inkstone-web@3.4.3',
      user: { id: '7' },
      request: { url: 'https://app.example/editor?id=1' },
      exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] },
      contexts: { trace: { sampled: true } },
    });
    expect(req.body).not.toMatch(/token|phone/i);
    expect(standin.accepted).toEqual([header!.event_id]);
  });

  it('a path prefix in the DSN is kept before /api/<project>/envelope/', () => {
    expect(parseSentryDsn('https://k@o1.ingest.example/relay/9')?.envelopeUrl).toBe('https://o1.ingest.example/relay/api/9/envelope/');
  });

  it('a failing ingest never throws into the app', async () => {
    const t = createTelemetry({ sentryDsn: `${base.replace('http://', 'http://wrongkey@')}/sentry/42` });
    await expect(t.reportError({ error: 'plain string', url: '/' })).resolves.toBeUndefined();
    expect(standin.seen).toHaveLength(1);
    expect(standin.accepted).toEqual([]);
  });
});

describe('monitoring POST when an endpoint is set', () => {
  it('POSTs the error as JSON', async () => {
    const t = createTelemetry({ monitorUrl: `${base}/monitor` });
    await t.reportError({ error: boom(), url: 'https://app.example/' });
    expect(standin.seen).toHaveLength(1);
    expect(standin.seen[0]!.method).toBe('POST');
    expect(standin.seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(standin.seen[0]!.body)).toMatchObject({ type: 'error', name: 'TypeError', message: 'x is undefined', appVersion: '3.4.3' });
  });
});

/** The app's window for startTelemetry: an event target with an address (the unit project runs in node). */
function appWindow() {
  const win = Object.assign(new EventTarget(), { location: { href: 'https://app.example/editor?id=1' } });
  vi.stubGlobal('window', win);
  const raise = (error: unknown) => win.dispatchEvent(Object.assign(new Event('error'), { error }));
  return { raise };
}

/** A fetch that never answers and settles only when its signal aborts. */
function hangingFetch() {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
  });
  return calls;
}

describe('through startTelemetry, as main.tsx installs it', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('an uncaught error goes to the monitoring endpoint, which is given up on after 5 s (spec 9: monitoring post 5000 ms)', async () => {
    vi.useFakeTimers();
    const { raise } = appWindow();
    const calls = hangingFetch();
    const failures: unknown[] = [];
    const onUnhandled = (e: unknown) => failures.push(e);
    process.on('unhandledRejection', onUnhandled);
    startTelemetry({ monitorUrl: 'https://monitor.example/collect' }, () => 7);
    raise(boom());
    expect(calls.map((c) => [c.url, c.init.method])).toEqual([['https://monitor.example/collect', 'POST']]);
    const signal = calls[0]!.init.signal!;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
    // Giving up raises nothing of its own.
    await vi.advanceTimersByTimeAsync(0);
    process.off('unhandledRejection', onUnhandled);
    expect(failures).toEqual([]);
  });

  it('every uncaught error and unhandled rejection is sent to Sentry: nothing is sampled away', async () => {
    const win = Object.assign(new EventTarget(), { location: { href: 'https://app.example/' } });
    vi.stubGlobal('window', win);
    startTelemetry({ sentryDsn: `${base.replace('http://', 'http://abc123@')}/sentry/42` }, () => null);
    for (let i = 0; i < 10; i++) win.dispatchEvent(Object.assign(new Event('error'), { error: new Error(`boom ${i}`) }));
    for (let i = 0; i < 10; i++) win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error(`rejected ${i}`) }));
    await vi.waitUntil(() => standin.accepted.length === 20, { timeout: 5_000 });
    const values = standin.seen.map((s) => (JSON.parse(s.body.trim().split('\n')[2]!) as { exception: { values: { value: string }[] } }).exception.values[0]!.value);
    expect(new Set(values).size).toBe(20);
  });
});

describe('public IP lookup when an endpoint is set', () => {
  it('reads {"ip"} JSON or a bare address, and refuses anything else', async () => {
    expect(await createTelemetry({ ipLookupUrl: `${base}/ip.json` }).lookupIp()).toBe('203.0.113.7');
    expect(await createTelemetry({ ipLookupUrl: `${base}/ip.txt` }).lookupIp()).toBe('2001:db8::1');
    expect(await createTelemetry({ ipLookupUrl: `${base}/ip.bad` }).lookupIp()).toBeNull();
    expect(await createTelemetry({ ipLookupUrl: `${base}/missing` }).lookupIp()).toBeNull();
    expect(await createTelemetry({ ipLookupUrl: `${base}/hang` }, { ipTimeoutMs: 100 }).lookupIp()).toBeNull();
    expect(standin.seen.map((s) => s.path)).toEqual(['/ip.json', '/ip.txt', '/ip.bad', '/missing']);
  });

  it('isIpAddress', () => {
    for (const ok of ['1.2.3.4', '255.255.255.255', '::1', '2001:db8::1']) expect(isIpAddress(ok)).toBe(true);
    for (const bad of ['256.1.1.1', '1.2.3', 'example.com', '', 'a:b:c:zz::']) expect(isIpAddress(bad)).toBe(false);
  });
});
