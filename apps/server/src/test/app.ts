import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { TOKEN_NAME, type Envelope } from '@inkstone/shared';
import { loadConfig } from '../config.js';
import { createContainer, type Container } from '../container.js';
import { buildApp } from '../app.js';
import { createLogger } from '../logger.js';
import type { Clock } from '../clock.js';
import { openFreshPostgres, openTestDatabase, type TestDbKind } from './database.js';

/** A clock tests can move forward. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface TestApp {
  url: string;
  app: FastifyInstance;
  container: Container;
  clock: TestClock;
  dbKind: TestDbKind;
  /** Calls the API over real HTTP and returns the envelope. */
  call<T = unknown>(method: string, path: string, opts?: CallOptions): Promise<Envelope<T> & { status: number; headers: Headers }>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  ip?: string;
  headers?: Record<string, string>;
  rawBody?: string | Uint8Array;
}

let ipCounter = 1;
/** A distinct client address per call site, so per-IP limits of one test never touch another. */
export const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

export async function startTestApp(opts: { db?: TestDbKind; env?: Record<string, string>; logStream?: DestinationStream } = {}): Promise<TestApp> {
  const dbKind = opts.db ?? 'pglite';
  const database = await openTestDatabase(dbKind);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    TRUST_PROXY: 'true',
    APP_SECRET_KEY: 'ab'.repeat(32),
    PUBLIC_URL: 'http://127.0.0.1:1',
    // Suites count exact balances from zero; the welcome grant is tested where it is asked for.
    WELCOME_POINTS: '0',
    ...opts.env,
  });
  const clock = new TestClock();
  const container = await createContainer(config, { clock, database, logger: createLogger(config, { destination: opts.logStream }) });
  const app = await buildApp(container);
  await container.startJobs();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const defaultIp = nextIp();

  return {
    url,
    app,
    container,
    clock,
    dbKind,
    async call(method, path, o = {}) {
      const u = new URL(path.startsWith('http') ? path : `${url}${path.startsWith('/api') ? '' : '/api'}${path}`);
      for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
      const headers: Record<string, string> = { 'x-forwarded-for': o.ip ?? defaultIp, ...o.headers };
      if (o.token) headers[TOKEN_NAME] = o.token;
      let body: string | Uint8Array | undefined;
      if (o.rawBody !== undefined) body = o.rawBody;
      else if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(u, { method, headers, body: body as BodyInit | undefined });
      const json = (await res.json()) as Envelope<never>;
      return { ...json, status: res.status, headers: res.headers };
    },
    async close() {
      await app.close();
      await container.close();
    },
  };
}

export interface WebProcess {
  app: FastifyInstance;
  container: Container;
  url: string;
}

/**
 * `count` web processes (ROLES=web) on one fresh PostgreSQL database and one Redis, as a deployment runs them: caches
 * invalidated and rate limits shared over Redis. The first process uses the migrated handle; the others open their
 * own pools on the same database. `close` stops them and drops the database.
 */
export async function startWebProcesses(
  adminUrl: string,
  redisUrl: string,
  env: Record<string, string> = {},
  count = 2,
  /** Settings of one process only, by position (ROLES of a worker among web processes). */
  own: Array<Record<string, string>> = [],
): Promise<{ processes: WebProcess[]; close(): Promise<void> }> {
  const fresh = await openFreshPostgres(adminUrl, 't');
  const processes: WebProcess[] = [];
  const settings = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    APP_SECRET_KEY: 'ab'.repeat(32),
    WELCOME_POINTS: '0',
    DATABASE_URL: fresh.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ROLES: 'web',
    ...env,
  };
  for (let i = 0; i < count; i++) {
    const config = loadConfig({ ...settings, ...own[i] });
    const container = await createContainer(config, { logger: createLogger(config), ...(i === 0 ? { database: { ...fresh, close: async () => undefined } } : {}) });
    await container.cacheBus.ready();
    const app = await buildApp(container);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    processes.push({ app, container, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
  }
  return {
    processes,
    async close() {
      for (const p of [...processes].reverse()) {
        await p.app.close();
        await p.container.close().catch(() => undefined);
      }
      await fresh.close();
    },
  };
}
