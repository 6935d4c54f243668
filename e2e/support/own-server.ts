import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * A server of a spec's own, on its own embedded database, for specs that must use the admin CLI: the CLI cannot open
 * the shared server's PGlite while it runs, so such a spec stops its server, runs the CLI on the same DATA_DIR and
 * starts it again (what an operator does on a one-process install).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = process.env.E2E_BUILD ? `dist-${process.env.E2E_BUILD}` : 'dist';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export class OwnServer {
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-e2e-own-'));
  private child: ChildProcess | null = null;
  private port = 0;
  private output = '';

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      DATA_DIR: this.dataDir,
      WEB_DIST_DIR: path.join(root, `apps/web/${dist}`),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_ANON_PER_MINUTE: '100000',
      TRUST_PROXY: 'true',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };
  }

  /** Starts (or restarts, on the same port and data) and waits for /healthz. */
  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.output = '';
    const child = spawn(process.execPath, [path.join(root, `apps/server/${dist}/main.js`)], {
      cwd: root,
      env: { ...this.env(), PORT: String(this.port), PUBLIC_URL: this.baseURL },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => {
      this.output = (this.output + b.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${this.output}`);
      try {
        if ((await fetch(`${this.baseURL}/healthz`)).ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`server did not become healthy:\n${this.output}`);
  }

  /** SIGTERM and wait for the exit: PGlite flushes and releases its lock on a clean shutdown. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** `npm run admin -- <args>` on this server's data (the server must be stopped). Returns stdout. */
  async admin(...args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, `apps/server/${dist}/admin.js`), ...args], { cwd: root, env: this.env() });
    return stdout;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
