import { ErrorCode, type LedgerEntry } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { InvalidatingCache } from '../../cache/invalidating-cache.js';
import type { LedgerRow, PointsRepo } from './points.repo.js';

const COSTS_TOPIC = 'point-costs';
/**
 * How long a price read may be used at most. Console changes reach every process at once over the cache bus; this bounds
 * a change the bus never heard of (the admin CLI run against a database the server uses without Redis).
 */
const COST_TTL_MS = 30_000;

/** A feature's price as read at one moment, and when the next scheduled change of it starts (ms since the epoch). */
interface CachedCost {
  point: number | null;
  until: number | null;
}

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

/** PostgreSQL's unique_violation, as node-postgres and PGlite report it (drizzle may wrap it as the cause). */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

const toResult = (row: LedgerRow, duplicate: boolean): PointsResult => ({ ledgerId: row.id, delta: row.delta, balance: row.balanceAfter, duplicate });

/**
 * The only writer of users.points_balance. Every change is a conditional single-statement update plus
 * one ledger row in the same transaction (a savepoint when the caller is already in one), keyed so a
 * retry, replay or concurrent duplicate changes nothing.
 */
export class PointsService {
  /** Prices by feature: read on every paid create, changed a few times a year. */
  private readonly costCache: InvalidatingCache<string, CachedCost> | null;

  constructor(
    private readonly repo: PointsRepo,
    private readonly clock: Clock,
    bus?: InvalidationBus,
  ) {
    this.costCache = bus ? new InvalidatingCache(bus, COSTS_TOPIC, { max: 500, ttlMs: COST_TTL_MS, parse: (m) => m }) : null;
  }

  /** The repo on the caller's transaction when one is given, else on the database. */
  private on(db: DbOrTx | undefined): PointsRepo {
    return db ? this.repo.with(db) : this.repo;
  }

  private async existing(repo: PointsRepo, userId: number, key: string): Promise<PointsResult | undefined> {
    const row = await repo.byKey(key);
    if (!row) return undefined;
    // A key names one operation for one user; reusing it for someone else is a programming error.
    if (row.userId !== userId) throw new Error(`idempotency key ${key} belongs to another user`);
    return toResult(row, true);
  }

  /** Runs `write` atomically; a unique-key collision with a concurrent writer becomes "duplicate". */
  private async apply(repo: PointsRepo, userId: number, key: string, write: (tx: PointsRepo) => Promise<LedgerRow>): Promise<PointsResult> {
    const seen = await this.existing(repo, userId, key);
    if (seen) return seen;
    try {
      const row = await repo.transaction(write);
      return toResult(row, false);
    } catch (err) {
      if (!(err instanceof DuplicateKey)) throw err;
      const raced = await this.existing(repo, userId, key);
      if (!raced) throw new Error(`ledger key ${key} collided but is not readable`, { cause: err });
      return raced;
    }
  }

  private async appendLedger(tx: PointsRepo, values: Parameters<PointsRepo['appendLedger']>[0]): Promise<LedgerRow> {
    const row = await tx.appendLedger(values);
    if (!row) throw new DuplicateKey();
    return row;
  }

  async balance(userId: number, db?: DbOrTx): Promise<{ score: number; totalScore: number }> {
    return (await this.on(db).balance(userId)) ?? { score: 0, totalScore: 0 };
  }

  /** Takes `amount` points or fails with POINTS_INSUFFICIENT; never goes below zero. */
  async charge(userId: number, amount: number, opts: ChargeOptions, db?: DbOrTx): Promise<PointsResult> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('charge amount must be a positive integer');
    const kind = opts.kind ?? 'charge';
    if (!db) return this.chargeAlone(userId, amount, opts, kind);
    return this.apply(this.on(db), userId, opts.idempotencyKey, async (tx) => {
      const balance = await tx.debit(userId, amount);
      if (balance === undefined) {
        const score = (await tx.balance(userId))?.score ?? 0;
        throw appError(ErrorCode.POINTS_INSUFFICIENT, undefined, { iDataEventId: opts.eventId ?? opts.reason, balance: score, need: amount });
      }
      return this.appendLedger(tx, {
        userId,
        delta: -amount,
        balanceAfter: balance,
        kind,
        reason: opts.reason,
        idempotencyKey: opts.idempotencyKey,
        createdAt: this.clock.now(),
      });
    });
  }

  /**
   * A charge outside any caller's transaction: one statement (debit + ledger row) in the common case, one round trip.
   * Only a refusal or a used key reads more: the key's row (a retry answers "duplicate", even once the balance is short).
   */
  private async chargeAlone(userId: number, amount: number, opts: ChargeOptions, kind: 'charge' | 'deduct'): Promise<PointsResult> {
    let row: LedgerRow | undefined;
    try {
      row = await this.repo.debitWithLedger(userId, amount, { kind, reason: opts.reason, idempotencyKey: opts.idempotencyKey, createdAt: this.clock.now() });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const seen = await this.existing(this.repo, userId, opts.idempotencyKey);
      if (!seen) throw new Error(`ledger key ${opts.idempotencyKey} collided but is not readable`, { cause: err });
      return seen;
    }
    if (row) return toResult(row, false);
    const seen = await this.existing(this.repo, userId, opts.idempotencyKey);
    if (seen) return seen;
    const score = (await this.repo.balance(userId))?.score ?? 0;
    throw appError(ErrorCode.POINTS_INSUFFICIENT, undefined, { iDataEventId: opts.eventId ?? opts.reason, balance: score, need: amount });
  }

  /** Adds points. Grants (welcome included) also count toward totalScore; refunds only restore the balance. */
  async grant(userId: number, amount: number, opts: GrantOptions, db?: DbOrTx): Promise<PointsResult> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('grant amount must be a positive integer');
    const kind = opts.kind ?? 'grant';
    return this.apply(this.on(db), userId, opts.idempotencyKey, async (tx) => {
      const balance = await tx.credit(userId, amount, kind !== 'refund');
      if (balance === undefined) throw new Error(`user ${userId} does not exist`);
      return this.appendLedger(tx, {
        userId,
        delta: amount,
        balanceAfter: balance,
        kind,
        reason: opts.reason,
        idempotencyKey: opts.idempotencyKey,
        createdAt: this.clock.now(),
      });
    });
  }

  /**
   * Gives back (part of) a charge whose work failed. At most once per charge (key `refund:<chargeKey>`),
   * never more than was charged; a refund of an unknown charge is an error, not a free grant.
   */
  async refund(userId: number, chargeKey: string, opts: { reason: string; amount?: number }, db?: DbOrTx): Promise<PointsResult> {
    const charge = await this.on(db).byKey(chargeKey);
    if (!charge || charge.userId !== userId || (charge.kind !== 'charge' && charge.kind !== 'deduct')) {
      throw new Error(`no charge ${chargeKey} for user ${userId} to refund`);
    }
    const charged = -charge.delta;
    const amount = Math.min(opts.amount ?? charged, charged);
    return this.grant(userId, amount, { reason: opts.reason, idempotencyKey: `refund:${chargeKey}`, kind: 'refund' }, db);
  }

  async history(userId: number, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.history(userId, pageNum, pageSize);
    const records: LedgerEntry[] = rows.map((r) => ({
      id: r.id,
      delta: r.delta,
      balanceAfter: r.balanceAfter,
      kind: r.kind,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
    }));
    return { records, total, pageNum, pageSize };
  }

  /** Whether a ledger key was used (daily reward, invite reward) without reading the whole history. */
  async used(key: string): Promise<boolean> {
    return (await this.repo.byKey(key)) !== undefined;
  }

  /** The points dictionary in force now (scheduled changes that have started included). */
  async costs(tx?: DbOrTx) {
    return this.on(tx).costs(this.clock.now());
  }

  /** The price of a feature from the dictionary; paid features call this then charge(). */
  async costOf(feature: string): Promise<number> {
    const now = this.clock.now();
    const load = async (): Promise<CachedCost> => {
      const c = await this.repo.costNow(feature, now);
      return { point: c?.point ?? null, until: c?.nextChangeAt?.getTime() ?? null };
    };
    let cost = this.costCache ? await this.costCache.get(feature, load) : await load();
    // A scheduled change has started since the price was read: read it again (the clock moved, not the data).
    if (cost.until !== null && now.getTime() >= cost.until) {
      this.costCache?.invalidateAllLocal();
      cost = this.costCache ? await this.costCache.get(feature, load) : await load();
    }
    if (cost.point === null) throw new Error(`unknown paid feature ${feature}`);
    return cost.point;
  }

  /** Prices changed (a new feature, a scheduled change, one withdrawn): every process reads them again. After the commit. */
  costsChanged(): void {
    this.costCache?.invalidateAll();
  }

  async setCost(feature: string, name: string | undefined, point: number) {
    if (!Number.isInteger(point) || point < 0) throw new Error('point must be a non-negative integer');
    // A feature already priced changes through a change effective now: an edit of its base row would stay hidden
    // behind any change that has started.
    const known = (await this.repo.costs(this.clock.now())).some((c) => c.feature === feature);
    if (known) await this.scheduleCost({ feature, name, point });
    else {
      await this.repo.upsertCost(feature, name, point);
      this.costsChanged();
    }
    return this.costs();
  }

  /** Price changes not started yet, soonest first. */
  async pendingCostChanges() {
    return this.repo.pendingCostChanges(this.clock.now());
  }

  /**
   * Schedules a new price for a feature of the dictionary from `effectiveAt` (now when absent). Charges made before
   * then keep the old price; the dictionary the web reads changes at that moment.
   */
  /** Inside the caller's transaction (`tx`) the caller calls `costsChanged()` once it has committed. */
  async scheduleCost(input: { feature: string; name?: string; point: number; effectiveAt?: Date }, tx?: DbOrTx) {
    const now = this.clock.now();
    const repo = this.on(tx);
    const current = (await repo.costs(now)).find((c) => c.feature === input.feature);
    if (!current) throw appError(ErrorCode.NOT_FOUND, `积分字典中没有功能 ${input.feature}`);
    const effectiveAt = input.effectiveAt ?? now;
    const row = await repo.scheduleCost({ feature: input.feature, name: input.name ?? current.name, point: input.point, effectiveAt: effectiveAt < now ? now : effectiveAt });
    if (!tx) this.costsChanged();
    return row;
  }

  /**
   * Withdraws a scheduled change before it starts; undefined when there is no such pending change. Inside the caller's
   * transaction (`tx`) the caller calls `costsChanged()` once it has committed.
   */
  async withdrawCostChange(id: number, tx?: DbOrTx) {
    const row = await this.on(tx).withdrawCostChange(id, this.clock.now());
    if (!tx && row) this.costsChanged();
    return row;
  }
}
