import Fastify, { type FastifyInstance } from 'fastify';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { TOKEN_NAME } from '@inkstone/shared';
import { loadConfig } from '../apps/server/src/config.js';
import { createContainer } from '../apps/server/src/container.js';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { noticeReads, notices, users } from '../apps/server/src/db/schema/index.js';

const USERS = 1_000;
const BROADCASTS = 50;
const PERSONAL = 300;
const SLICES = 5;
const SLICE_S = 2;
const WARMUP_S = 2;
const CONNECTIONS = 20;
const DAY = 24 * 60 * 60 * 1000;

/** Deterministic pseudo-random numbers, so every run seeds the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Counts replies whose envelope is not success: they are HTTP 200 too, so autocannon cannot see them. */
function countFailures(app: FastifyInstance) {
  const counter = { failures: 0 };
  app.addHook('onSend', async (_req, _reply, payload) => {
    if (typeof payload === 'string' && !payload.startsWith('{"code":0')) counter.failures += 1;
    return payload;
  });
  return counter;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function load(url: string, requests: autocannon.Request[], duration: number) {
  // The load generator runs on its own thread so it does not share the event loop with the servers it measures.
  const r = await autocannon({ url, connections: CONNECTIONS, duration, requests, workers: 1 });
  return { p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, total: r.requests.total };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function summarise(slices: Awaited<ReturnType<typeof load>>[], failures: number) {
  const total = slices.reduce((n, s) => n + s.total, 0);
  return {
    requestsPerSec: Math.round(total / (slices.length * SLICE_S)),
    p50Ms: median(slices.map((s) => s.p50Ms)),
    p99Ms: median(slices.map((s) => s.p99Ms)),
    total,
    non2xx: slices.reduce((n, s) => n + s.non2xx, 0),
    errors: slices.reduce((n, s) => n + s.errors, 0),
    envelopeFailures: failures,
  };
}

async function seed(c: Awaited<ReturnType<typeof createContainer>>) {
  const random = rng(42);
  const now = Date.now();
  const inserted = await c.db
    .insert(users)
    .values(Array.from({ length: USERS }, (_, i) => ({
      uid: `bench${String(i).padStart(7, '0')}`,
      username: `u_bench${i}`,
      nickname: `压测${i}`,
      phone: `139${String(i).padStart(8, '0')}`,
      inviteCode: `B${String(i).padStart(7, '0')}`,
      createdAt: new Date(now - Math.floor(random() * 60) * DAY),
    })))
    .returning({ id: users.id });
  const userIds = inserted.map((u) => u.id);
  const tokens: string[] = [];
  for (const id of userIds) tokens.push((await c.services.sessions.create(id, {})).tokenValue);

  const broadcastIds: number[] = [];
  for (let i = 0; i < BROADCASTS; i++) {
    const n = await c.services.notices.publish({ title: `系统公告 ${i}`, content: '内容'.repeat(40), type: i % 3 === 0 ? 'activity' : 'system', publishedAt: new Date(now - (BROADCASTS - i) * 12 * 60 * 60 * 1000) });
    broadcastIds.push(n.id);
  }
  for (let i = 0; i < PERSONAL; i++) {
    await c.services.notices.publish({ title: `私信 ${i}`, content: '你的稿件已发布', type: 'update', userId: userIds[Math.floor(random() * USERS)]! });
  }
  // About half of the broadcasts read by each user.
  const reads = userIds.flatMap((userId) => broadcastIds.filter(() => random() < 0.5).map((noticeId) => ({ userId, noticeId })));
  for (let i = 0; i < reads.length; i += 5_000) await c.db.insert(noticeReads).values(reads.slice(i, i + 5_000));
  return { tokens, reads: reads.length, notices: (await c.db.$count(notices)) };
}

/** GET /api/notice/bubble for 1,000 logged-in users (session lookup + unread count on PGlite) vs a bare Fastify route. */
export async function run(): Promise<Record<string, unknown>> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_ANON_PER_MINUTE: '1000000000', APP_SECRET_KEY: 'ab'.repeat(32), PORT: '0', HOST: '127.0.0.1' });
  const database = await openDatabase({ dataDir: null });
  const container = await createContainer(config, { database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(container);
  const oursCounter = countFailures(app);
  const bare = Fastify({ logger: false });
  const bareCounter = countFailures(bare);
  bare.get('/api/notice/bubble', async () => ({ code: 0, msg: 'success', data: { unreadNoticeNum: 3 } }));
  try {
    const seeded = await seed(container);
    const oursUrl = await listen(app);
    const bareUrl = await listen(bare);

    // Every user answers, with a plausible count, before anything is timed.
    const sample = await Promise.all(seeded.tokens.slice(0, 20).map(async (token) => (await (await fetch(`${oursUrl}/api/notice/bubble`, { headers: { [TOKEN_NAME]: token } })).json()) as { code: number; data: { unreadNoticeNum: number } }));
    if (sample.some((s) => s.code !== 0 || s.data.unreadNoticeNum < 0 || s.data.unreadNoticeNum > BROADCASTS + PERSONAL)) throw new Error(`bubble sanity check failed: ${JSON.stringify(sample[0])}`);

    const requests = seeded.tokens.map((token) => ({ method: 'GET' as const, path: '/api/notice/bubble', headers: { [TOKEN_NAME]: token } }));
    await load(oursUrl, requests, WARMUP_S);
    await load(bareUrl, requests, WARMUP_S);
    oursCounter.failures = 0;
    bareCounter.failures = 0;
    // Alternating short slices: on a shared machine, load from other processes then hits both sides alike.
    const oursSlices = [];
    const bareSlices = [];
    for (let i = 0; i < SLICES; i++) {
      oursSlices.push(await load(oursUrl, requests, SLICE_S));
      bareSlices.push(await load(bareUrl, requests, SLICE_S));
    }
    const ours = summarise(oursSlices, oursCounter.failures);
    const baseline = summarise(bareSlices, bareCounter.failures);
    return {
      scenario: `GET /api/notice/bubble, ${USERS} users' tokens in rotation (PGlite in memory) vs a bare Fastify route`,
      data: { users: USERS, notices: seeded.notices, broadcasts: BROADCASTS, personal: PERSONAL, readRows: seeded.reads },
      connections: CONNECTIONS,
      durationS: SLICES * SLICE_S,
      latency: `p50/p99: median over ${SLICES} alternating ${SLICE_S} s slices`,
      ours,
      baseline,
      throughputRatio: Number((ours.requestsPerSec / baseline.requestsPerSec).toFixed(3)),
      p99Ratio: Number((ours.p99Ms / Math.max(baseline.p99Ms, 1)).toFixed(2)),
    };
  } finally {
    await bare.close();
    await app.close();
    await container.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)));
