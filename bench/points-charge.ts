/**
 * Points charge throughput: 50-way concurrent PointsService.charge() on one user (conditional update + ledger row
 * in one transaction) against a baseline of plain single-row `update ... set x = x + 1` at the same
 * concurrency, in the same run. Verifies exactness: successes == balance drop == ledger rows.
 *
 * PostgreSQL from BENCH_DATABASE_URL (else TEST_DATABASE_URL); neither set: in-memory PGlite (said so).
 *   npx tsx bench/points-charge.ts
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { openDatabase, type DbHandle } from '../apps/server/src/db/client.js';
import { pointsLedger, users } from '../apps/server/src/db/schema/index.js';
import { PointsService } from '../apps/server/src/modules/vip/points.service.js';
import { PointsRepo } from '../apps/server/src/modules/vip/points.repo.js';
import type { Figure } from './lib.js';

export const figures = ['points-rate', 'points-ratio'] as const;
import { systemClock } from '../apps/server/src/clock.js';

const CONCURRENCY = 50;
// Issue 11: "50-way on one user" — every charge (and every baseline update) hits the same row.
const USERS = 1;
const CHARGES = Number(process.env.BENCH_CHARGES ?? 4000);
const COST = 3;

async function openBenchDatabase(): Promise<DbHandle & { label: string }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('[points-charge] no BENCH_DATABASE_URL / TEST_DATABASE_URL: running on in-memory PGlite (single connection, not representative of PostgreSQL)');
    return { ...(await openDatabase({ dataDir: null })), label: 'pglite' };
  }
  return { ...(await openFreshPostgres(adminUrl, 'bench')), label: 'postgres' };
}

/** Runs `total` tasks with at most `width` in flight; returns elapsed ms. */
async function pool(total: number, width: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const i = next++;
        await task(i);
      }
    }),
  );
  return performance.now() - started;
}

export async function run() {
  const database = await openBenchDatabase();
  const { db } = database;
  try {
    const points = new PointsService(new PointsRepo(db), systemClock);
    const tag = randomBytes(3).toString('hex');
    const perUser = Math.ceil(CHARGES / USERS);
    const seeded = await db
      .insert(users)
      .values(Array.from({ length: USERS }, (_, i) => ({ uid: `b${tag}${i}`, username: `b${tag}${i}`, nickname: 'bench', inviteCode: `B${tag}${i}`.toUpperCase() })))
      .returning({ id: users.id });
    const ids = seeded.map((u) => u.id);
    for (const id of ids) await points.grant(id, perUser * COST, { reason: 'bench seed', idempotencyKey: `bench:${tag}:seed:${id}` });

    // Warm-up so both measurements run on a warm pool and plan cache.
    await pool(200, CONCURRENCY, (i) =>
      db
        .update(users)
        .set({ pointsTotal: sql`${users.pointsTotal} + 0` })
        .where(eq(users.id, ids[i % USERS]!)),
    );

    const baselineMs = await pool(CHARGES, CONCURRENCY, (i) =>
      db
        .update(users)
        .set({ pointsTotal: sql`${users.pointsTotal} + 1` })
        .where(eq(users.id, ids[i % USERS]!)),
    );

    let ok = 0;
    let refused = 0;
    const chargeMs = await pool(CHARGES, CONCURRENCY, async (i) => {
      try {
        await points.charge(ids[i % USERS]!, COST, { reason: 'bench', idempotencyKey: `bench:${tag}:c:${i}` });
        ok += 1;
      } catch {
        refused += 1;
      }
    });

    const [after] = await db
      .select({ balance: sql<string>`sum(${users.pointsBalance})` })
      .from(users)
      .where(inArray(users.id, ids));
    const [ledger] = await db
      .select({ n: sql<string>`count(*)`, sum: sql<string>`coalesce(sum(${pointsLedger.delta}), 0)` })
      .from(pointsLedger)
      .where(sql`${pointsLedger.userId} in ${ids} and ${pointsLedger.kind} = 'charge'`);
    const balanceDrop = USERS * perUser * COST - Number(after!.balance);
    const exact = ok === CHARGES && refused === 0 && balanceDrop === ok * COST && Number(ledger!.n) === ok && -Number(ledger!.sum) === balanceDrop;

    const perSecond = Math.round((CHARGES / chargeMs) * 1000);
    const ratioToBaseline = Number((baselineMs / chargeMs).toFixed(3));
    const onPg = database.label === 'postgres';
    const result = {
      figures: [
        { id: 'points-rate', value: `${perSecond}/s (${database.label}${exact ? ', exact' : ', NOT exact'})`, pass: onPg && exact && perSecond >= 1000 },
        { id: 'points-ratio', value: `${ratioToBaseline}x (${Math.round((CHARGES / baselineMs) * 1000)} plain updates/s)`, pass: onPg && exact && ratioToBaseline >= 0.5 },
      ] satisfies Figure[],
      database: database.label,
      concurrency: CONCURRENCY,
      charges: CHARGES,
      chargesPerSecond: Math.round((CHARGES / chargeMs) * 1000),
      baselineUpdatesPerSecond: Math.round((CHARGES / baselineMs) * 1000),
      ratioToBaseline: Number((baselineMs / chargeMs).toFixed(3)),
      exact,
      successes: ok,
      refused,
      balanceDrop,
      ledgerRows: Number(ledger!.n),
    };
    console.log(
      `[points-charge] ${result.database}: ${result.chargesPerSecond} charges/s vs ${result.baselineUpdatesPerSecond} plain updates/s ` +
        `(ratio ${result.ratioToBaseline}); exact=${exact} (successes ${ok}, balance drop ${balanceDrop / COST} charges, ledger rows ${result.ledgerRows})`,
    );
    if (!exact) throw new Error('points-charge: ledger, balance and successes disagree');
    return result;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
