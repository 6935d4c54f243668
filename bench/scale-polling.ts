import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { TOKEN_NAME } from '@inkstone/shared';
import { loadConfig } from '../apps/server/src/config.js';
import { createContainer } from '../apps/server/src/container.js';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { notices, platformAccounts, users } from '../apps/server/src/db/schema/index.js';
import { startBareFastify, startProduct, type Running } from './lib.js';

/** A row of bench/run.ts's table of figures (id, measured value with its baseline, PASS/FAIL). */
interface Figure {
  id: string;
  value: string;
  pass: boolean;
}
const ratio = (ours: number, baseline: number) => Number((ours / baseline).toFixed(2));

/**
 * 10,000 online creators polling as the web does: every 15 s each asks for its notice bubble and its bound account's
 * unread counts, against two web processes (ROLES=web) on one PostgreSQL and one Redis, users spread over the two as
 * a round-robin load balancer would. The load is open-loop: each user's polls fire on their own 15 s clock from a
 * random phase whether or not earlier replies came back, so a slow server shows up as latency (measured from the
 * moment the poll was due, client-side queueing included) instead of as a politely lower rate. The same schedule is
 * then sent to a bare Fastify route on the same machine, the baseline of the latency ratio.
 *   BENCH_SCALE_USERS (10000), BENCH_SCALE_SECONDS measured (30, after one 15 s round of warm-up)
 */

const USERS = Number(process.env.BENCH_SCALE_USERS ?? 10_000);
const INTERVAL_MS = 15_000;
const MEASURE_MS = Number(process.env.BENCH_SCALE_SECONDS ?? 30) * 1000;
/** Sockets per target process, as a proxy in front would keep open. */
const SOCKETS = 128;
/** A poll not answered within this (from when it was due) counts as an error: the user's next poll is already due. */
const TIMEOUT_MS = 10_000;
/** Pass: no errors, the offered rate kept up with, and p99 within this. */
const P99_TARGET_MS = 1_000;
const BENCH_REDIS_PORT = process.env.BENCH_REDIS_PORT ?? '63809';

const root = fileURLToPath(new URL('..', import.meta.url));

export const figures = ['scale-polling'] as const;

interface Poll {
  target: string;
  path: string;
  token: string;
}

interface Outcome {
  latencies: number[];
  errors: number;
  kinds: Record<string, number>;
  sent: number;
  /** From the first counted poll's due time to the last counted reply. */
  elapsedS: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

/** Fires every user's polls on schedule for `warmupMs + measureMs`; only polls due after the warm-up are counted. */
async function drive(users: Array<{ polls: Poll[] }>, warmupMs: number, measureMs: number): Promise<Outcome> {
  const agents = new Map<string, http.Agent>();
  const agentFor = (target: string) => {
    let a = agents.get(target);
    if (!a) agents.set(target, (a = new http.Agent({ keepAlive: true, maxSockets: SOCKETS })));
    return a;
  };
  const out: Outcome = { latencies: [], errors: 0, kinds: {}, sent: 0, elapsedS: measureMs / 1000 };
  let lastReply = 0;
  const fail = (kind: string, counted: boolean) => {
    if (!counted) return;
    out.errors += 1;
    out.kinds[kind] = (out.kinds[kind] ?? 0) + 1;
  };
  const one = (p: Poll, due: number, counted: boolean) =>
    new Promise<void>((resolve) => {
      const u = new URL(p.path, p.target);
      const req = http.get(u, { agent: agentFor(p.target), headers: { [TOKEN_NAME]: p.token }, timeout: TIMEOUT_MS }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          const now = performance.now();
          if (counted) {
            out.sent += 1;
            lastReply = Math.max(lastReply, now);
          }
          // Every API reply is HTTP 200; the envelope's code says whether it worked.
          if (res.statusCode !== 200) fail(`http ${res.statusCode}`, counted);
          else if (!body.startsWith('{"code":0')) fail(`code ${body.slice(8, 12)}`, counted);
          else if (now - due > TIMEOUT_MS) fail('late', counted);
          if (counted) out.latencies.push(now - due);
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        if (counted) out.sent += 1;
        fail(err.message === 'timeout' ? 'timeout' : 'network', counted);
        resolve();
      });
    });
  const start = performance.now() + 100;
  const end = start + warmupMs + measureMs;
  const inflight = new Set<Promise<void>>();
  // One timer per 10 ms slot of the schedule instead of 20,000 timers.
  const due: Array<{ at: number; poll: Poll }> = [];
  for (const u of users) {
    const phase = Math.random() * INTERVAL_MS;
    for (let at = start + phase; at < end; at += INTERVAL_MS) for (const poll of u.polls) due.push({ at, poll });
  }
  due.sort((x, y) => x.at - y.at);
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < due.length && due[next]!.at <= now) {
        const d = due[next++]!;
        const p = one(d.poll, d.at, d.at >= start + warmupMs);
        inflight.add(p);
        void p.then(() => inflight.delete(p));
      }
      if (next < due.length) setTimeout(tick, 10);
      else resolve();
    };
    setTimeout(tick, 100);
  });
  await Promise.all(inflight);
  for (const a of agents.values()) a.destroy();
  out.elapsedS = Math.max(measureMs, lastReply - (start + warmupMs)) / 1000;
  return out;
}

function summary(o: Outcome) {
  const sorted = [...o.latencies].sort((x, y) => x - y);
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    polls: o.sent,
    perSecond: Math.round(o.sent / o.elapsedS),
    p50Ms: r(percentile(sorted, 50)),
    p99Ms: r(percentile(sorted, 99)),
    maxMs: r(sorted.at(-1) ?? 0),
    errors: o.errors,
    errorKinds: o.kinds,
  };
}

async function seed(adminUrl: string, redisUrl: string, prefix: string) {
  const db = await openFreshPostgres(adminUrl, 'benchscale');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    APP_SECRET_KEY: 'ab'.repeat(32),
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    ROLES: 'web',
  });
  const c = await createContainer(config, { database: { ...db, close: async () => undefined }, logger: pino({ level: 'silent' }) });
  try {
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < USERS; i += 1_000) {
      const rows = await c.db
        .insert(users)
        .values(
          Array.from({ length: Math.min(1_000, USERS - i) }, (_, k) => ({
            uid: `scale${String(i + k).padStart(7, '0')}`,
            username: `u_scale${i + k}`,
            nickname: `在线${i + k}`,
            phone: `136${String(i + k).padStart(8, '0')}`,
            inviteCode: `S${String(i + k).padStart(7, '0')}`,
          })),
        )
        .returning({ id: users.id });
      ids.push(...rows.map((r) => r.id));
    }
    const accounts: number[] = [];
    for (let i = 0; i < ids.length; i += 1_000) {
      const rows = await c.db
        .insert(platformAccounts)
        .values(
          ids.slice(i, i + 1_000).map((userId, k) => ({
            userId,
            platform: 'sandbox',
            platformUserId: `sbx${i + k}`,
            accountName: `账号${i + k}`,
            unread: { unread_count: (i + k) % 7, likes: 1, connections: 0, mentions: 0 },
          })),
        )
        .returning({ id: platformAccounts.id });
      accounts.push(...rows.map((r) => r.id));
    }
    const tokens: string[] = [];
    for (let i = 0; i < ids.length; i += 100) tokens.push(...(await Promise.all(ids.slice(i, i + 100).map(async (id) => (await c.services.sessions.create(id, {})).tokenValue))));
    for (let i = 0; i < 20; i++)
      await c.services.notices.publish({ title: `公告 ${i}`, content: '内容'.repeat(20), type: 'system', publishedAt: new Date(now - (20 - i) * 3_600_000) });
    return { db, tokens, accounts, notices: await c.db.$count(notices) };
  } finally {
    await c.close();
  }
}

function redisForBench(): { url: string; stop: () => void } {
  const given = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (given) return { url: given, stop: () => undefined };
  const env = { ...process.env, REDIS_TEST_PORT: BENCH_REDIS_PORT };
  const url = execFileSync('bash', ['scripts/redis-test-server.sh', 'start'], { cwd: root, env, encoding: 'utf8' }).trim();
  return { url, stop: () => execFileSync('bash', ['scripts/redis-test-server.sh', 'stop'], { cwd: root, env }) };
}

/** 10,000 users polling bubble + unread every 15 s against two web processes on PostgreSQL + Redis, vs a bare route. */
export async function run(): Promise<Record<string, unknown>> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { figures: [{ id: 'scale-polling', value: 'no BENCH_DATABASE_URL / TEST_DATABASE_URL', pass: false }] };
  const redis = redisForBench();
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const started: Running[] = [];
  let seeded: Awaited<ReturnType<typeof seed>> | undefined;
  try {
    const t0 = Date.now();
    seeded = await seed(adminUrl, redis.url, prefix);
    const seedS = Math.round((Date.now() - t0) / 100) / 10;
    const env = { ROLES: 'web', DATABASE_URL: seeded.db.url, REDIS_URL: redis.url, REDIS_PREFIX: prefix, APP_SECRET_KEY: 'ab'.repeat(32) };
    const [a, b, bare] = await Promise.all([startProduct(env), startProduct(env), startBareFastify()]);
    started.push(a, b, bare);
    const oursUsers = seeded.tokens.map((token, i) => {
      const target = i % 2 ? b.url : a.url;
      return {
        polls: [
          { target, path: '/api/notice/bubble', token },
          { target, path: `/api/publish/account/unread?accountId=${seeded!.accounts[i]}`, token },
        ],
      };
    });
    const bareUsers = seeded.tokens.map((token) => ({
      polls: [
        { target: bare.url, path: '/bare', token },
        { target: bare.url, path: '/bare', token },
      ],
    }));
    const ours = summary(await drive(oursUsers, INTERVAL_MS, MEASURE_MS));
    const baseline = summary(await drive(bareUsers, INTERVAL_MS, MEASURE_MS));
    const offered = Math.round((USERS * 2 * 1000) / INTERVAL_MS);
    // Served at the offered rate (not just eventually): replies per second over the time they took to come back.
    const keptUp = ours.perSecond >= offered * 0.95;
    const figure: Figure = {
      id: 'scale-polling',
      value: `p99 ${ours.p99Ms} ms (bare ${baseline.p99Ms} ms, ${ratio(ours.p99Ms, baseline.p99Ms)}x), ${ours.errors} errors, ${ours.perSecond}/${offered} req/s`,
      pass: ours.errors === 0 && keptUp && ours.p99Ms <= P99_TARGET_MS,
    };
    return {
      scenario: `${USERS} users x (bubble + unread) every ${INTERVAL_MS / 1000} s, open loop, two ROLES=web processes on PostgreSQL + Redis; ${MEASURE_MS / 1000} s measured after one warm-up round`,
      offeredPerSecond: offered,
      seeded: { users: USERS, accounts: seeded.accounts.length, notices: seeded.notices, seconds: seedS },
      ours,
      bareRoute: baseline,
      p99Ratio: ratio(ours.p99Ms, baseline.p99Ms),
      figures: [figure],
    };
  } finally {
    for (const s of started) await s.stop();
    await seeded?.db.close();
    redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
