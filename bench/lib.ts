import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Which build the scenarios run: BENCH_BUILD=<name> uses apps/server/dist-<name> and apps/web/dist-<name> (a private
 * build, scripts/build-private.sh), BENCH_BUILD=src runs the server from source through tsx; unset, the shared dist/.
 */
const build = process.env.BENCH_BUILD;

/** `node` arguments that start a server entry point (`main` or `admin`) of the chosen build. */
export function serverEntry(entry: 'main' | 'admin'): string[] {
  // BENCH_CPU_PROF=<dir>: the servers write V8 CPU profiles there when they exit (what a figure is made of).
  const prof = process.env.BENCH_CPU_PROF && entry === 'main' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  if (build === 'src') return [...prof, '--import', 'tsx', path.join(root, `apps/server/src/${entry}.ts`)];
  return [...prof, path.join(root, `apps/server/${build ? `dist-${build}` : 'dist'}/${entry}.js`)];
}

/**
 * What `npm run serve` (package.json) puts in the server's environment, so the product is measured as it is started:
 * a fixed glibc trim threshold. glibc otherwise raises it after large frees (up to 64 MB), and an idle server kept
 * ~90 MB of freed start-up memory (PGlite's initdb, its wasm compilation) resident.
 */
export const SERVE_ENV = { MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? '131072' };

/** The web build the server serves and the bundle scenario weighs. */
export function webDist(): string {
  return path.join(root, `apps/web/${build && build !== 'src' ? `dist-${build}` : 'dist'}`);
}

/** One row of issue 11's table, as measured by a scenario: printed by run.ts with PASS/FAIL. */
export interface Figure {
  /** Key in run.ts's table of figures. */
  id: string;
  /** The measured figure, with its unit (and the baseline it is a ratio of). */
  value: string;
  pass: boolean;
}

export const ratio = (ours: number, baseline: number) => Number((ours / baseline).toFixed(3));

/**
 * Sends every request once (20 at a time) before anything is timed: online users poll every 15 s, so in the steady
 * state being measured each of them has been seen recently.
 */
export async function warmEach(url: string, requests: autocannon.Request[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        await (await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers as Record<string, string> })).arrayBuffer();
      }
    }),
  );
}

/**
 * Ours against a baseline server under the same load, in alternating short slices so that load from other processes on a
 * shared machine hits both sides alike. Throughput is total requests over total time; p50/p99 are medians over slices.
 */
export async function alternate(
  ours: { url: string; requests?: autocannon.Request[]; headers?: Record<string, string> },
  baseline: { url: string; requests?: autocannon.Request[] },
  opts: { connections?: number; slices?: number; sliceS?: number; warmupS?: number } = {},
) {
  const { connections = 20, slices = 5, sliceS = 2, warmupS = 2 } = opts;
  const one = async (side: typeof ours, duration: number) => {
    // The load generator runs on its own thread so it does not share the event loop with an in-process server.
    const r = await autocannon({ url: side.url, requests: side.requests, headers: side.headers, connections, duration, workers: 1 });
    return { total: r.requests.total, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
  };
  await one(ours, warmupS);
  await one(baseline, warmupS);
  const a: Awaited<ReturnType<typeof one>>[] = [];
  const b: Awaited<ReturnType<typeof one>>[] = [];
  for (let i = 0; i < slices; i++) {
    a.push(await one(ours, sliceS));
    b.push(await one(baseline, sliceS));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const sum = (xs: Awaited<ReturnType<typeof one>>[]) => ({
    requestsPerSec: Math.round(xs.reduce((n, x) => n + x.total, 0) / (xs.length * sliceS)),
    p50Ms: median(xs.map((x) => x.p50Ms)),
    p99Ms: median(xs.map((x) => x.p99Ms)),
    non2xx: xs.reduce((n, x) => n + x.non2xx, 0),
    errors: xs.reduce((n, x) => n + x.errors, 0),
  });
  const o = sum(a);
  const base = sum(b);
  return { connections, slices: `${slices} x ${sliceS} s alternating`, ours: o, baseline: base, throughputRatio: ratio(o.requestsPerSec, base.requestsPerSec) };
}

export interface Running {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function waitForUrl(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = out.match(pattern);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before listening:\n${out}`)));
  });
}

const stopper = (child: ChildProcess, cleanup?: () => void) => () =>
  new Promise<void>((resolve) => {
    child.once('exit', () => {
      cleanup?.();
      resolve();
    });
    child.kill('SIGTERM');
  });

/** The built product (`npm run build` first) on a random port with a fresh embedded database. */
export async function startProduct(env: Record<string, string> = {}): Promise<Running> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-bench-'));
  const child = spawn(process.execPath, serverEntry('main'), {
    env: {
      ...process.env,
      ...SERVE_ENV,
      WEB_DIST_DIR: webDist(),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_ANON_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await waitForUrl(child, /running at (http:\/\/localhost:\d+)/);
  return { url, pid: child.pid!, stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })) };
}

/** A bare Fastify route answering the same envelope: the baseline for HTTP overhead. */
export async function startBareFastify(): Promise<Running> {
  const code = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/bare', async () => ({ code: 0, msg: 'success', data: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log('listening at http://127.0.0.1:' + app.server.address().port);
    process.on('SIGTERM', () => app.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: path.join(root, 'apps/server'), stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await waitForUrl(child, /listening at (http:\/\/127\.0\.0\.1:\d+)/);
  return { url, pid: child.pid!, stop: stopper(child) };
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 20, duration: 8, ...opts });
  return { requestsPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** Logs a fresh phone number in through the outbox SMS flow and returns the token (`ip`: x-forwarded-for, for TRUST_PROXY). */
export async function loginThroughOutbox(baseUrl: string, phone: string, ip?: string): Promise<string> {
  const headers: Record<string, string> = ip ? { 'x-forwarded-for': ip } : {};
  const call = async (p: string, init?: RequestInit) =>
    (await (await fetch(`${baseUrl}/api${p}`, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } })).json()) as {
      code: number;
      msg: string;
      data: never;
    };
  const sent = await call(`/auth/send/msg?phone=${phone}`);
  if (sent.code !== 0) throw new Error(sent.msg);
  const outbox = (await call(`/dev/sms-outbox?phone=${phone}`)) as { data: { code: string }[] };
  const login = (await call('/auth/doLogin0', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, code: outbox.data[0]!.code }),
  })) as {
    code: number;
    msg: string;
    data: { tokenValue: string };
  };
  if (login.code !== 0) throw new Error(login.msg);
  return login.data.tokenValue;
}

/** Resident memory of a process and all its descendants (a browser's processes), in MB, from /proc. */
export function treeRssMb(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rss.set(Number(e), Number(fields[21]) * 4096);
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return Math.round(total / 1024 / 1024);
}

/** The client side of `paced` (plain JavaScript: it runs in a worker thread, away from an in-process server's loop). */
const PACED_CLIENT = `
const { parentPort, workerData: w } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: w.connections, maxFreeSockets: w.connections, scheduling: 'fifo' });
const latencies = [];
let errors = 0;
let i = 0;
const one = (due, counted) => new Promise((resolve) => {
  const r = w.requests[i++ % w.requests.length];
  const req = http.get(w.url + r.path, { agent, headers: r.headers, timeout: 10000 }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (body += c));
    res.on('end', () => {
      if (counted) {
        latencies.push(performance.now() - due);
        if (res.statusCode !== 200 || !body.startsWith('{"code":0')) errors++;
      }
      resolve();
    });
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => { if (counted) errors++; resolve(); });
});
(async () => {
  // Every connection opened before anything is timed, then used in turn (fifo): the load is spread over all of them.
  await Promise.all(Array.from({ length: w.connections }, () => one(performance.now(), false)));
  const gap = 1000 / w.rate;
  const start = performance.now() + 20;
  const total = Math.floor(((w.warmupMs + w.durationMs) / 1000) * w.rate);
  const counted = Math.floor((w.warmupMs / 1000) * w.rate);
  const pending = [];
  let n = 0;
  await new Promise((done) => {
    const tick = () => {
      const now = performance.now();
      while (n < total && start + n * gap <= now) { pending.push(one(start + n * gap, n >= counted)); n++; }
      if (n < total) setTimeout(tick, 1); else done();
    };
    tick();
  });
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0);
  const r1 = (x) => Math.round(x * 10) / 10;
  parentPort.postMessage({ sent: latencies.length, errors, p50Ms: r1(at(0.5)), p99Ms: r1(at(0.99)), maxMs: r1(at(1)) });
})();
`;

export interface PacedResult {
  sent: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Latency at a given load: `rate` requests a second spread evenly over `connections` kept-alive connections (open
 * loop: each request is sent when it is due, answered or not, and timed from then, so a slow server shows as latency,
 * not as a politely lower rate). The first `warmupMs` are not counted.
 */
export async function paced(opts: { url: string; requests: autocannon.Request[]; connections: number; rate: number; durationMs: number; warmupMs: number }): Promise<PacedResult> {
  const { Worker } = await import('node:worker_threads');
  const requests = opts.requests.map((r) => ({ path: r.path, headers: r.headers }));
  const worker = new Worker(PACED_CLIENT, { eval: true, workerData: { ...opts, requests } });
  try {
    return await new Promise<PacedResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`paced client exited (${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}
