import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '@inkstone/shared';

/**
 * Runs the real server (or admin CLI) as a child process from source with tsx, for what only a process shows:
 * signals, kill -9, file locks, start-up failures. `@inkstone/shared` is mapped to its source (as vitest does), so
 * the child runs the same code as the tests without a build.
 */
const serverSrc = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

let tsconfig: string | null = null;
function tsxConfig(): string {
  if (!tsconfig) {
    const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-tsx-'));
    tsconfig = path.join(dir, 'tsconfig.json');
    writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { baseUrl: repoRoot, paths: { '@inkstone/shared': ['packages/shared/src/index.ts'] } } }));
  }
  return tsconfig;
}

export interface Proc {
  child: ChildProcess;
  pid: number;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node --import tsx <script>` in one process (the tsx CLI would put a second process between us and the signals). */
export function runScript(script: 'main.ts' | 'admin.ts', args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverSrc, script), ...args], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', TSX_TSCONFIG_PATH: tsxConfig(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, pid: child.pid!, output: () => out, exited };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProc extends Proc {
  url: string;
  /** When /healthz first answered. */
  readyAt: number;
}

/** Starts main.ts on a free port and waits until /healthz answers; throws with the output when it exits first. */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = runScript('main.ts', [], { PORT: String(port), HOST: '127.0.0.1', APP_SECRET_KEY: 'cd'.repeat(32), RATE_LIMIT_PER_MINUTE: '100000', ...env });
  let exited = false;
  void p.exited.then(() => (exited = true));
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (exited) throw new Error(`server exited before it was ready:\n${p.output()}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { ...p, url, readyAt: Date.now() };
    await new Promise((r) => setTimeout(r, 200));
  }
  p.child.kill('SIGKILL');
  throw new Error(`server not ready within ${timeoutMs} ms:\n${p.output()}`);
}

/** One API call over HTTP; the reply must be an envelope. */
export async function apiCall<T>(base: string, method: string, p: string, o: { token?: string; body?: unknown; query?: Record<string, string> } = {}): Promise<Envelope<T>> {
  const u = new URL(`${base}/api${p}`);
  for (const [k, v] of Object.entries(o.query ?? {})) u.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (o.token) headers['inkstone-token'] = o.token;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(u, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  return (await res.json()) as Envelope<T>;
}

/** Logs a new user in through the SMS outbox of a running server. */
export async function loginOn(base: string, phone: string): Promise<string> {
  const sent = await apiCall(base, 'GET', '/auth/send/msg', { query: { phone } });
  if (sent.code !== 0) throw new Error(`send failed: ${sent.msg}`);
  const box = await apiCall<Array<{ code: string }>>(base, 'GET', '/dev/sms-outbox', { query: { phone } });
  const login = await apiCall<{ tokenValue: string }>(base, 'POST', '/auth/doLogin0', { body: { phone, code: box.data[0]!.code } });
  if (login.code !== 0) throw new Error(`login failed: ${login.msg}`);
  return login.data.tokenValue;
}
