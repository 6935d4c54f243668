import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { ErrorCode, limits } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import { smsCodes } from '../../db/schema/index.js';
import { appError } from '../../http/errors.js';
import { hmacHex, randomDigits, safeEqual } from '../../security/hashing.js';
import { SmsSendError, type SmsSender } from '../../integrations/sms/types.js';
import type { Clock } from '../../clock.js';
import type { FastifyBaseLogger } from 'fastify';

/** Start of the calendar day in China (UTC+8), where the daily caps reset. */
export function chinaDayStart(now: Date): Date {
  const shifted = new Date(now.getTime() + 8 * 3600_000);
  shifted.setUTCHours(0, 0, 0, 0);
  return new Date(shifted.getTime() - 8 * 3600_000);
}

type VerifyOutcome = 'ok' | 'wrong' | 'expired';

/** Verification codes: issue, rate-limit and consume. Codes are stored only as HMACs. */
export class SmsCodeService {
  constructor(
    private readonly db: Db,
    private readonly sms: SmsSender,
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  private hash(phone: string, code: string) {
    return hmacHex(this.key, `sms:${phone}:${code}`);
  }

  /** Same reply whether or not the phone is registered. */
  async send(phone: string, ip: string): Promise<{ resendAfterSeconds: number; sandbox: boolean }> {
    const now = this.clock.now();
    const code = randomDigits(6);
    const id = await this.db.transaction(async (tx) => {
      // Serialise sends per phone and per IP so concurrent requests cannot slip past the caps.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'sms-phone:' + phone}))`);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'sms-ip:' + ip}))`);
      const [last] = await tx
        .select({ createdAt: smsCodes.createdAt })
        .from(smsCodes)
        .where(eq(smsCodes.phone, phone))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      if (last && now.getTime() - last.createdAt.getTime() < limits.smsResendIntervalMs) {
        const wait = Math.ceil((limits.smsResendIntervalMs - (now.getTime() - last.createdAt.getTime())) / 1000);
        throw appError(ErrorCode.SMS_TOO_FREQUENT, `验证码发送过于频繁，请${wait}秒后再试`, { resendAfterSeconds: wait });
      }
      const dayStart = chinaDayStart(now);
      const [perPhone] = await tx.select({ n: count() }).from(smsCodes).where(and(eq(smsCodes.phone, phone), gte(smsCodes.createdAt, dayStart)));
      if ((perPhone?.n ?? 0) >= limits.smsDailyPerPhone) throw appError(ErrorCode.SMS_DAILY_LIMIT);
      const [perIp] = await tx.select({ n: count() }).from(smsCodes).where(and(eq(smsCodes.ip, ip), gte(smsCodes.createdAt, dayStart)));
      if ((perIp?.n ?? 0) >= limits.smsDailyPerIp) throw appError(ErrorCode.SMS_DAILY_LIMIT);
      // Only the newest code is valid.
      await tx.update(smsCodes).set({ voidedAt: now }).where(and(eq(smsCodes.phone, phone), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)));
      const [row] = await tx
        .insert(smsCodes)
        .values({ phone, ip, codeHash: this.hash(phone, code), createdAt: now, expiresAt: new Date(now.getTime() + limits.smsCodeTtlMs) })
        .returning({ id: smsCodes.id });
      return row!.id;
    });
    try {
      await this.sms.sendCode(phone, code);
    } catch (err) {
      // A code the user never received must not block a retry or count against the caps.
      await this.db.delete(smsCodes).where(eq(smsCodes.id, id));
      this.log.warn({ err, vendor: this.sms.name, vendorCode: err instanceof SmsSendError ? err.vendorCode : undefined }, 'sms send failed');
      throw appError(ErrorCode.SMS_SEND_FAILED);
    }
    return { resendAfterSeconds: limits.smsResendIntervalMs / 1000, sandbox: this.sms.sandbox };
  }

  /**
   * Checks and consumes the newest live code for the phone. A wrong guess is counted (and committed)
   * before the error is thrown; the fifth wrong guess voids the code. Runs in its own transaction,
   * never inside a caller's, so a rollback there cannot undo the wrong-guess count.
   */
  async consume(phone: string, code: string): Promise<void> {
    const now = this.clock.now();
    const outcome: VerifyOutcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, phone), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1)
        .for('update');
      if (!row || row.expiresAt <= now) return 'expired';
      if (!safeEqual(row.codeHash, this.hash(phone, code))) {
        const tries = row.wrongTries + 1;
        await tx
          .update(smsCodes)
          .set({ wrongTries: tries, voidedAt: tries >= limits.smsMaxWrongTries ? now : null })
          .where(eq(smsCodes.id, row.id));
        return 'wrong';
      }
      const used = await tx
        .update(smsCodes)
        .set({ usedAt: now })
        .where(and(eq(smsCodes.id, row.id), isNull(smsCodes.usedAt)))
        .returning({ id: smsCodes.id });
      return used.length === 1 ? 'ok' : 'expired';
    });
    if (outcome === 'expired') throw appError(ErrorCode.SMS_CODE_EXPIRED);
    if (outcome === 'wrong') throw appError(ErrorCode.SMS_CODE_WRONG);
  }
}
