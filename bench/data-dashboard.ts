import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { createContainer } from '../apps/server/src/container.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { dataAccountDays, dataNoteDays, platformAccounts, users } from '../apps/server/src/db/schema/index.js';
import { addDays, dayOf, sandboxMetrics, type MetricsNote } from '../apps/server/src/integrations/platforms/sandbox-metrics.js';
import { ratio, type Figure } from './lib.js';

/**
 * The /dataAnalyse dashboard's queries (overview, series, accounts, notes table, heatmap, top: what the page asks on
 * load) over 3 accounts x 365 days x 200 notes each of snapshots (seeded through the snapshot write path, which keeps
 * the per-day totals and data_note_latest), against baselines in the same run: one plain count of every snapshot row
 * of the user (what the dashboard read before those read models), and a primary-key read of one snapshot row (the
 * least any query costs). Target: the dashboard <= 1 s.
 * PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, else PGlite.
 */
export const figures = ['data-dashboard'] as const;

const ACCOUNTS = 3;
const DAYS = 365;
const NOTES = 200;
const RUNS = 5;

export async function run() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    APP_SECRET_KEY: 'ab'.repeat(32),
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLISH_PLATFORMS: 'sandbox',
    ROLES: 'web',
  });
  const database = adminUrl ? await openFreshPostgres(adminUrl, 'bench') : await openDatabase({ dataDir: null });
  const c = await createContainer(config, { database, logger: pino({ level: 'silent' }) });
  try {
    const [user] = await c.db.insert(users).values({ uid: 'databench', username: 'databench', nickname: '数据压测', inviteCode: 'DATABNCH' }).returning({ id: users.id });
    const userId = user!.id;
    const today = dayOf(Date.now());
    const from = addDays(today, -DAYS);
    const to = addDays(today, -1);
    const seedStart = Date.now();
    for (let a = 0; a < ACCOUNTS; a++) {
      const [acct] = await c.db
        .insert(platformAccounts)
        .values({ userId, platform: 'sandbox', platformUserId: `bench${a}`, accountName: `压测账号${a}` })
        .returning({ id: platformAccounts.id });
      const perAccount = NOTES;
      // Notes spread over the year at varied hours, so the heatmap and the table have real work.
      const notes: MetricsNote[] = Array.from({ length: perAccount }, (_, i) => ({
        id: `a${a}n${i}`,
        title: `压测笔记 ${a}-${i}`,
        url: null,
        publishedAt: Date.parse(`${addDays(from, Math.floor((i * DAYS) / perAccount))}T00:00:00+08:00`) + ((i * 7 + a * 5) % 24) * 3600_000,
      }));
      const m = sandboxMetrics(300 + a * 100, notes, from, to);
      const base = { accountId: acct!.id, userId };
      // Through the snapshot write path, so the per-day totals and the latest-figures table are kept as in production.
      await c.data.repo.appendDays(
        m.days.map((d) => ({ ...base, ...d })),
        m.notes.map((n) => ({
          ...base,
          noteKey: n.noteId,
          title: n.title,
          url: n.url,
          publishedAt: n.publishedAt,
          day: n.day,
          views: n.views,
          likes: n.likes,
          collects: n.collects,
          comments: n.comments,
          shares: n.shares,
        })),
      );
    }
    await c.db.execute(sql`analyze`);
    const seedMs = Date.now() - seedStart;
    const data = c.data.data;

    const dashboard = async () => {
      const q = { range: '30' as const };
      await Promise.all([
        data.overview(userId, q),
        data.series(userId, q),
        data.accountsCompare(userId, q),
        data.notes(userId, { page: 1, size: 20, sort: 'publishedAt', order: 'desc' }),
        data.heatmap(userId, { range: 'custom', from, to }),
        data.top(userId, { range: '90', by: 'views', limit: 10 }),
      ]);
    };
    const baseline = async () => {
      await c.db.execute(sql`select count(*) from ${dataNoteDays} where user_id = ${userId}`);
      await c.db.execute(sql`select count(*) from ${dataAccountDays} where user_id = ${userId}`);
    };
    const time = async (fn: () => Promise<void>) => {
      await fn();
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await fn();
        ms.push(performance.now() - t0);
      }
      return ms.sort((x, y) => x - y)[Math.floor(RUNS / 2)]!;
    };
    const [probe] = await c.db.select({ id: dataAccountDays.id }).from(dataAccountDays).limit(1);
    const pkRead = async () => {
      await c.db.execute(sql`select * from ${dataAccountDays} where id = ${probe!.id}`);
    };
    const baseMs = await time(baseline);
    const pkMs = await time(pkRead);
    const dashMs = await time(dashboard);
    const counted = (await c.db.execute(sql`select count(*)::int as n from ${dataNoteDays}`)) as unknown as { rows: Array<{ n: number }> };
    const figure: Figure = {
      id: 'data-dashboard',
      value: `${dashMs.toFixed(0)} ms (${ratio(dashMs, baseMs)}x a full count, ${baseMs.toFixed(0)} ms; ${ratio(dashMs, pkMs)}x a primary-key read, ${pkMs.toFixed(2)} ms), ${adminUrl ? 'PostgreSQL' : 'PGlite'}`,
      pass: dashMs <= 1000,
    };
    return {
      database: adminUrl ? 'postgres' : 'pglite',
      seedMs,
      noteRows: counted.rows[0]?.n ?? null,
      baselineMs: Number(baseMs.toFixed(1)),
      primaryKeyMs: Number(pkMs.toFixed(2)),
      dashboardMs: Number(dashMs.toFixed(1)),
      figures: [figure],
    };
  } finally {
    await c.close();
  }
}
