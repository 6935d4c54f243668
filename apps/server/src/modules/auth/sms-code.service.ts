import { ErrorCode, limits } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { hmacHex, randomDigits, safeEqual } from '../../security/hashing.js';
import { SmsSendError, type SmsSender } from '../../integrations/sms/types.js';
import type { Clock } from '../../clock.js';
import type { FastifyBaseLogger } from 'fastify';
import type { SmsCodeRepo } from './sms-code.repo.js';

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
    private readonly repo: SmsCodeRepo,
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
    const id = await this.repo.transaction(async (r) => {
      // Serialise sends per phone and per IP so concurrent requests cannot slip past the caps.
      await r.lock('sms-phone:' + phone);
      await r.lock('sms-ip:' + ip);
      const last = await r.lastSentAt(phone);
      if (last && now.getTime() - last.getTime() < limits.smsResendIntervalMs) {
        const wait = Math.ceil((limits.smsResendIntervalMs - (now.getTime() - last.getTime())) / 1000);
        throw appError(ErrorCode.SMS_TOO_FREQUENT, `验证码发送过于频繁，请${wait}秒后再试`, { resendAfterSeconds: wait });
      }
      const dayStart = chinaDayStart(now);
      if ((await r.countForPhoneSince(phone, dayStart)) >= limits.smsDailyPerPhone) throw appError(ErrorCode.SMS_DAILY_LIMIT);
      if ((await r.countForIpSince(ip, dayStart)) >= limits.smsDailyPerIp) throw appError(ErrorCode.SMS_DAILY_LIMIT);
      // Only the newest code is valid.
      await r.voidLive(phone, now);
      return r.insert({ phone, ip, codeHash: this.hash(phone, code), createdAt: now, expiresAt: new Date(now.getTime() + limits.smsCodeTtlMs) });
    });
    try {
      await this.sms.sendCode(phone, code);
    } catch (err) {
      // A code the user never received must not block a retry or count against the caps.
      await this.repo.delete(id);
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
    const outcome: VerifyOutcome = await this.repo.transaction(async (r) => {
      const row = await r.newestLiveForUpdate(phone);
      if (!row || row.expiresAt <= now) return 'expired';
      if (!safeEqual(row.codeHash, this.hash(phone, code))) {
        const tries = row.wrongTries + 1;
        await r.setWrongTries(row.id, tries, tries >= limits.smsMaxWrongTries ? now : null);
        return 'wrong';
      }
      return (await r.markUsed(row.id, now)) ? 'ok' : 'expired';
    });
    if (outcome === 'expired') throw appError(ErrorCode.SMS_CODE_EXPIRED);
    if (outcome === 'wrong') throw appError(ErrorCode.SMS_CODE_WRONG);
  }
}
