import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Running {
  url: string;
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
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_ANON_PER_MINUTE: '100000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await waitForUrl(child, /running at (http:\/\/localhost:\d+)/);
  return { url, stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })) };
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
  return { url, stop: stopper(child) };
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

/** Logs a fresh phone number in through the outbox SMS flow and returns the token. */
export async function loginThroughOutbox(baseUrl: string, phone: string): Promise<string> {
  const call = async (p: string, init?: RequestInit) => (await (await fetch(`${baseUrl}/api${p}`, init)).json()) as { code: number; msg: string; data: never };
  const sent = await call(`/auth/send/msg?phone=${phone}`);
  if (sent.code !== 0) throw new Error(sent.msg);
  const outbox = (await call(`/dev/sms-outbox?phone=${phone}`)) as { data: { code: string }[] };
  const login = (await call('/auth/doLogin0', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone, code: outbox.data[0]!.code }) })) as {
    code: number;
    msg: string;
    data: { tokenValue: string };
  };
  if (login.code !== 0) throw new Error(login.msg);
  return login.data.tokenValue;
}
