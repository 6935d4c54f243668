import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import { ErrorCode, type LedgerEntry, type LedgerKind } from '@inkstone/shared';
import type { Db, DbOrTx } from '../../db/client.js';
import { pointCosts, pointsLedger, users } from '../../db/schema/index.js';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';

export type { LedgerKind };

export interface PointsResult {
  ledgerId: number;
  delta: number;
  /** Balance right after this entry was written (not the current one for a duplicate). */
  balance: number;
  /** True when the idempotency key had already been used: nothing changed this time. */
  duplicate: boolean;
}

export interface ChargeOptions {
  reason: string;
  idempotencyKey: string;
  /** Echoed in the POINTS_INSUFFICIENT reply so the web app can attribute the lackPoints prompt; defaults to reason. */
  eventId?: string;
  kind?: 'charge' | 'deduct';
}

export interface GrantOptions {
  reason: string;
  idempotencyKey: string;
  kind?: 'grant' | 'refund' | 'welcome';
}

/** Raised inside a transaction to roll it back when another writer already used the key. */
class DuplicateKey extends Error {}

type LedgerRow = typeof pointsLedger.$inferSelect;

const toResult = (row: LedgerRow, duplicate: boolean): PointsResult => ({ ledgerId: row.id, delta: row.delta, balance: row.balanceAfter, duplicate });

/**
 * The only writer of users.points_balance. Every change is a conditional single-statement update plus
 * one ledger row in the same transaction (a savepoint when the caller is already in one), keyed so a
 * retry, replay or concurrent duplicate changes nothing.
 */
export class PointsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private async byKey(db: DbOrTx, key: string): Promise<LedgerRow | undefined> {
    const [row] = await db.select().from(pointsLedger).where(eq(pointsLedger.idempotencyKey, key));
    return row;
  }

  private async existing(db: DbOrTx, userId: number, key: string): Promise<PointsResult | undefined> {
    const row = await this.byKey(db, key);
    if (!row) return undefined;
    // A key names one operation for one user; reusing it for someone else is a programming error.
    if (row.userId !== userId) throw new Error(`idempotency key ${key} belongs to another user`);
    return toResult(row, true);
  }

  /** Runs `write` atomically; a unique-key collision with a concurrent writer becomes "duplicate". */
  private async apply(db: DbOrTx, userId: number, key: string, write: (tx: DbOrTx) => Promise<LedgerRow>): Promise<PointsResult> {
    const seen = await this.existing(db, userId, key);
    if (seen) return seen;
    try {
      const row = await db.transaction(async (tx) => write(tx));
      return toResult(row, false);
    } catch (err) {
      if (!(err instanceof DuplicateKey)) throw err;
      const raced = await this.existing(db, userId, key);
      if (!raced) throw new Error(`ledger key ${key} collided but is not readable`, { cause: err });
      return raced;
    }
  }

  private async appendLedger(tx: DbOrTx, values: typeof pointsLedger.$inferInsert): Promise<LedgerRow> {
    const [row] = await tx.insert(pointsLedger).values(values).onConflictDoNothing({ target: pointsLedger.idempotencyKey }).returning();
    if (!row) throw new DuplicateKey();
    return row;
  }

  async balance(userId: number, db: DbOrTx = this.db): Promise<{ score: number; totalScore: number }> {
    const [row] = await db.select({ score: users.pointsBalance, totalScore: users.pointsTotal }).from(users).where(eq(users.id, userId));
    return row ?? { score: 0, totalScore: 0 };
  }

  /** Takes `amount` points or fails with POINTS_INSUFFICIENT; never goes below zero. */
  async charge(userId: number, amount: number, opts: ChargeOptions, db: DbOrTx = this.db): Promise<PointsResult> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('charge amount must be a positive integer');
    const kind = opts.kind ?? 'charge';
    return this.apply(db, userId, opts.idempotencyKey, async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({ pointsBalance: sql`${users.pointsBalance} - ${amount}` })
        .where(and(eq(users.id, userId), gte(users.pointsBalance, amount)))
        .returning({ balance: users.pointsBalance });
      if (!updated) {
        const { score } = await this.balance(userId, tx);
        throw appError(ErrorCode.POINTS_INSUFFICIENT, undefined, { iDataEventId: opts.eventId ?? opts.reason, balance: score, need: amount });
      }
      return this.appendLedger(tx, {
        userId, delta: -amount, balanceAfter: updated.balance, kind, reason: opts.reason, idempotencyKey: opts.idempotencyKey, createdAt: this.clock.now(),
      });
    });
  }

  /** Adds points. Grants (welcome included) also count toward totalScore; refunds only restore the balance. */
  async grant(userId: number, amount: number, opts: GrantOptions, db: DbOrTx = this.db): Promise<PointsResult> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('grant amount must be a positive integer');
    const kind = opts.kind ?? 'grant';
    return this.apply(db, userId, opts.idempotencyKey, async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({
          pointsBalance: sql`${users.pointsBalance} + ${amount}`,
          ...(kind !== 'refund' ? { pointsTotal: sql`${users.pointsTotal} + ${amount}` } : {}),
        })
        .where(eq(users.id, userId))
        .returning({ balance: users.pointsBalance });
      if (!updated) throw new Error(`user ${userId} does not exist`);
      return this.appendLedger(tx, {
        userId, delta: amount, balanceAfter: updated.balance, kind, reason: opts.reason, idempotencyKey: opts.idempotencyKey, createdAt: this.clock.now(),
      });
    });
  }

  /**
   * Gives back (part of) a charge whose work failed. At most once per charge (key `refund:<chargeKey>`),
   * never more than was charged; a refund of an unknown charge is an error, not a free grant.
   */
  async refund(userId: number, chargeKey: string, opts: { reason: string; amount?: number }, db: DbOrTx = this.db): Promise<PointsResult> {
    const charge = await this.byKey(db, chargeKey);
    if (!charge || charge.userId !== userId || (charge.kind !== 'charge' && charge.kind !== 'deduct')) {
      throw new Error(`no charge ${chargeKey} for user ${userId} to refund`);
    }
    const charged = -charge.delta;
    const amount = Math.min(opts.amount ?? charged, charged);
    return this.grant(userId, amount, { reason: opts.reason, idempotencyKey: `refund:${chargeKey}`, kind: 'refund' }, db);
  }

  async history(userId: number, pageNum: number, pageSize: number) {
    const where = eq(pointsLedger.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(pointsLedger).where(where).orderBy(desc(pointsLedger.id)).limit(pageSize).offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(pointsLedger).where(where),
    ]);
    const records: LedgerEntry[] = rows.map((r) => ({
      id: r.id, delta: r.delta, balanceAfter: r.balanceAfter, kind: r.kind, reason: r.reason, createdAt: r.createdAt.toISOString(),
    }));
    return { records, total: total?.n ?? 0, pageNum, pageSize };
  }

  /** Whether a ledger key was used (daily reward, invite reward) without reading the whole history. */
  async used(key: string): Promise<boolean> {
    return (await this.byKey(this.db, key)) !== undefined;
  }

  async costs() {
    return this.db.select({ feature: pointCosts.feature, name: pointCosts.name, point: pointCosts.point }).from(pointCosts).orderBy(pointCosts.feature);
  }

  /** The price of a feature from the dictionary; paid features call this then charge(). */
  async costOf(feature: string): Promise<number> {
    const [row] = await this.db.select({ point: pointCosts.point }).from(pointCosts).where(eq(pointCosts.feature, feature));
    if (!row) throw new Error(`unknown paid feature ${feature}`);
    return row.point;
  }

  async setCost(feature: string, name: string | undefined, point: number) {
    if (!Number.isInteger(point) || point < 0) throw new Error('point must be a non-negative integer');
    await this.db
      .insert(pointCosts)
      .values({ feature, name: name ?? feature, point })
      .onConflictDoUpdate({ target: pointCosts.feature, set: { point, ...(name ? { name } : {}), updatedAt: sql`now()` } });
    return this.costs();
  }
}
