import { ErrorCode, type AdminCodeBatch, type AdminRedemption } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { toCsv } from '../data/data.service.js';
import type { CodeKind, CodeService } from '../vip/code.service.js';
import type { AdminActor, AuditService } from './audit.service.js';

type BatchRow = Awaited<ReturnType<CodeService['batches']>>['rows'][number];

const toBatch = (r: BatchRow): AdminCodeBatch => ({
  batch: r.batch,
  kind: r.kind ?? 'points',
  value: r.value ?? 0,
  maxUses: r.maxUses ?? 1,
  codes: r.codes,
  used: r.used ?? 0,
  disabled: r.disabledCodes > 0 && r.disabledCodes === r.codes,
  expiresAt: r.expiresAt?.toISOString() ?? null,
  createdAt: (r.createdAt ?? new Date(0)).toISOString(),
});

/** 兑换码 in the console: batches are minted and disabled here and redeemed through the existing /vip flow. */
export class AdminCodesService {
  constructor(
    private readonly codes: CodeService,
    private readonly audit: AuditService,
  ) {}

  async batches(pageNum: number, pageSize: number) {
    const { rows, total } = await this.codes.batches(pageNum, pageSize);
    return { records: rows.map(toBatch), total, pageNum, pageSize };
  }

  private async batch(batch: string): Promise<AdminCodeBatch> {
    const rows = await this.codes.codesOf(batch);
    const first = rows[0];
    if (!first) throw appError(ErrorCode.NOT_FOUND, `批次 ${batch} 不存在`);
    return {
      batch,
      kind: first.kind,
      value: first.value,
      maxUses: first.maxUses,
      codes: rows.length,
      used: rows.reduce((a, r) => a + r.usedCount, 0),
      disabled: rows.every((r) => r.disabledAt !== null),
      expiresAt: first.expiresAt?.toISOString() ?? null,
      createdAt: first.createdAt.toISOString(),
    };
  }

  /** The codes are not written to the audit log (they are bearer values); the batch, its size and terms are. */
  async generate(actor: AdminActor, input: { kind: CodeKind; value: number; count: number; maxUses: number; expiresAt?: string | undefined; batch?: string | undefined }) {
    if (input.batch && (await this.codes.codesOf(input.batch)).length) throw appError(ErrorCode.CONFLICT, `批次 ${input.batch} 已存在`);
    const made = await this.codes.transaction(async (tx) => {
      const g = await this.codes.generate(
        {
          kind: input.kind,
          value: input.value,
          count: input.count,
          maxUses: input.maxUses,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          ...(input.batch ? { batch: input.batch } : {}),
        },
        tx,
      );
      await this.audit.record(tx, actor, {
        action: 'codes.generate',
        targetType: 'code_batch',
        targetId: g.batch,
        after: { batch: g.batch, kind: g.kind, value: g.value, count: g.codes.length, maxUses: g.maxUses, expiresAt: g.expiresAt },
      });
      return g;
    });
    return this.batch(made.batch);
  }

  async disable(actor: AdminActor, batch: string) {
    const before = await this.batch(batch);
    await this.codes.transaction(async (tx) => {
      await this.codes.disableBatch(batch, tx);
      await this.audit.record(tx, actor, {
        action: 'codes.disable',
        targetType: 'code_batch',
        targetId: batch,
        before: { disabled: before.disabled, used: before.used },
        after: { disabled: true },
      });
    });
    return this.batch(batch);
  }

  async exportCsv(batch: string): Promise<string> {
    const rows = await this.codes.codesOf(batch);
    if (!rows.length) throw appError(ErrorCode.NOT_FOUND, `批次 ${batch} 不存在`);
    return toCsv(
      ['兑换码', '批次', '类型', '面值', '已用次数', '可用次数', '过期时间', '停用时间'],
      rows.map((r) => [
        r.code,
        r.batch,
        r.kind === 'points' ? '积分' : '会员天数',
        r.value,
        r.usedCount,
        r.maxUses,
        r.expiresAt?.toISOString() ?? '',
        r.disabledAt?.toISOString() ?? '',
      ]),
    );
  }

  async redemptions(f: { batch?: string | undefined; userId?: number | undefined }, pageNum: number, pageSize: number) {
    const { rows, total } = await this.codes.redemptions(f, pageNum, pageSize);
    const records: AdminRedemption[] = rows.map((r) => ({ ...r, redeemedAt: r.redeemedAt.toISOString() }));
    return { records, total, pageNum, pageSize };
  }
}
