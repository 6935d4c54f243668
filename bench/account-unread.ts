import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { TOKEN_NAME } from '@inkstone/shared';
import { loadConfig } from '../apps/server/src/config.js';
import { createContainer } from '../apps/server/src/container.js';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { platformAccounts, users } from '../apps/server/src/db/schema/index.js';
import { alternate, warmEach, type Figure } from './lib.js';

export const figures = ['account-unread'] as const;

/** More creators than the route's own limit (240 a minute per session) lets one token poll during the run. */
const USERS = 2_000;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * GET /api/publish/account/unread (every bound account's counts, polled every 15 s) for 2,000 creators with one bound
 * account each, in process, vs a bare Fastify route answering the same envelope. PostgreSQL when BENCH_DATABASE_URL /
 * TEST_DATABASE_URL is set, else PGlite.
 */
export async function run() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_ANON_PER_MINUTE: '1000000000',
    APP_SECRET_KEY: 'ab'.repeat(32),
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const database = adminUrl ? await openFreshPostgres(adminUrl, 'bench') : await openDatabase({ dataDir: null });
  const c = await createContainer(config, { database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(c);
  const bare = Fastify({ logger: false });
  const unread = { unread_count: 3, likes: 12, connections: 1, mentions: 0 };
  bare.get('/api/publish/account/unread', async () => ({ code: 0, msg: 'success', data: unread }));
  try {
    const inserted = await c.db
      .insert(users)
      .values(
        Array.from({ length: USERS }, (_, i) => ({
          uid: `acct${i}`,
          username: `u_acct${i}`,
          nickname: `账号${i}`,
          phone: `137${String(i).padStart(8, '0')}`,
          inviteCode: `A${String(i).padStart(7, '0')}`,
        })),
      )
      .returning({ id: users.id });
    const accounts = await c.db
      .insert(platformAccounts)
      .values(inserted.map((u, i) => ({ userId: u.id, platform: 'xhs', platformUserId: `xhs${i}`, accountName: `小红书${i}`, unread, lastSyncedAt: new Date() })))
      .returning({ id: platformAccounts.id, userId: platformAccounts.userId });
    const requests = [];
    for (const a of accounts) {
      const { tokenValue } = await c.services.sessions.create(a.userId, {});
      requests.push({ method: 'GET' as const, path: `/api/publish/account/unread?accountId=${a.id}`, headers: { [TOKEN_NAME]: tokenValue } });
    }
    const oursUrl = await listen(app);
    const bareUrl = await listen(bare);
    const check = (await (await fetch(`${oursUrl}${requests[0]!.path}`, { headers: requests[0]!.headers })).json()) as { code: number; data: unknown };
    if (check.code !== 0 || JSON.stringify(check.data) !== JSON.stringify(unread)) throw new Error(`unread sanity check failed: ${JSON.stringify(check)}`);
    await warmEach(oursUrl, requests);
    const r = await alternate({ url: oursUrl, requests }, { url: bareUrl, requests });
    return {
      scenario: `GET /api/publish/account/unread, ${USERS} creators' tokens in rotation (${adminUrl ? 'PostgreSQL' : 'PGlite in memory'}) vs a bare Fastify route`,
      ...r,
      figures: [
        {
          id: 'account-unread',
          value: `${r.throughputRatio}x (${r.ours.requestsPerSec} vs ${r.baseline.requestsPerSec} req/s, ${adminUrl ? 'PostgreSQL' : 'PGlite'})`,
          pass: r.throughputRatio >= 0.5 && r.ours.non2xx === 0,
        },
      ] satisfies Figure[],
    };
  } finally {
    await bare.close();
    await app.close();
    await c.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
