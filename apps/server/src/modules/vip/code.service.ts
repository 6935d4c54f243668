import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { randomCode } from '../../security/hashing.js';
import type { Clock } from '../../clock.js';
import type { PointsService } from './points.service.js';
import type { VipService } from './vip.service.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { CodeRepo } from './code.repo.js';

export type CodeKind = 'points' | 'vip_days';

/** Coupon / rights codes: batches from the admin CLI; redeemed once per user, up to max_uses in all. */
export class CodeService {
  constructor(
    private readonly repo: CodeRepo,
    private readonly points: PointsService,
    private readonly vip: VipService,
    private readonly clock: Clock,
  ) {}

  /** Runs `fn` in one transaction (the console writes its audit entry in it). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.repo.transaction((_repo, tx) => fn(tx));
  }

  async generate(input: { kind: CodeKind; value: number; count: number; maxUses: number; expiresAt: Date | null; batch?: string }, tx?: DbOrTx) {
    if (!Number.isInteger(input.value) || input.value <= 0) throw new Error('--value must be a positive integer');
    if (!Number.isInteger(input.count) || input.count < 1 || input.count > 10_000) throw new Error('--count must be 1..10000');
    if (!Number.isInteger(input.maxUses) || input.maxUses < 1) throw new Error('--max-uses must be a positive integer');
    const batch = input.batch ?? `B${randomUUID().slice(0, 8).toUpperCase()}`;
    const codes = new Set<string>();
    // 12 characters of a 32-letter alphabet: 60 bits, far beyond guessing at any rate limit.
    while (codes.size < input.count) codes.add(randomCode(12));
    const rows = [...codes].map((code) => ({ code, batch, kind: input.kind, value: input.value, maxUses: input.maxUses, expiresAt: input.expiresAt }));
    await (tx ? this.repo.with(tx) : this.repo).insertMany(rows);
    return { batch, kind: input.kind, value: input.value, maxUses: input.maxUses, expiresAt: input.expiresAt?.toISOString() ?? null, codes: [...codes] };
  }

  async disableBatch(batch: string, tx?: DbOrTx) {
    return { batch, disabled: await (tx ? this.repo.with(tx) : this.repo).disableBatch(batch, this.clock.now()) };
  }

  async batches(pageNum: number, pageSize: number) {
    return this.repo.batches(pageNum, pageSize);
  }

  async codesOf(batch: string) {
    return this.repo.codesOf(batch);
  }

  async redemptions(f: { batch?: string | undefined; userId?: number | undefined }, pageNum: number, pageSize: number) {
    return this.repo.redemptions(f, pageNum, pageSize);
  }

  async batchStats(batch: string) {
    return this.repo.batch(batch);
  }

  /**
   * One transaction: the per-user use row (primary key: once per user), the conditional use counter
   * (`used_count < max_uses`: the last use cannot go twice) and the reward, so a failure anywhere undoes all.
   */
  async redeem(userId: number, rawCode: string) {
    const code = rawCode.trim().toUpperCase();
    const now = this.clock.now();
    const row = await this.repo.byCode(code);
    if (!row || row.disabledAt) throw appError(ErrorCode.CODE_INVALID);
    if (row.expiresAt && row.expiresAt <= now) throw appError(ErrorCode.CODE_EXPIRED);

    const vipExpiredAt = await this.repo.transaction(async (codes, tx) => {
      if (!(await codes.recordUse(row.id, userId, now))) throw appError(ErrorCode.CODE_ALREADY_REDEEMED);
      if (!(await codes.countUse(row.id))) throw appError(ErrorCode.CODE_USED_UP);
      const reason = `兑换码 ${code.slice(0, 4)}****`;
      if (row.kind === 'points') {
        await this.points.grant(userId, row.value, { reason, idempotencyKey: `code:${row.id}:${userId}` }, tx);
        return null;
      }
      return this.vip.extend(userId, row.value, tx);
    });
    const { score } = await this.points.balance(userId);
    const info = await this.vip.info(userId);
    return { kind: row.kind, value: row.value, score, vipExpiredTime: vipExpiredAt ? vipExpiredAt.toISOString() : info.expiredTime };
  }
}
