import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { smsOutbox } from '../../db/schema/index.js';
import type { SmsSender } from './types.js';

/**
 * Embedded default: no SMS leaves the machine. The code is written to the server log and to the
 * outbox table that the dev outbox page (and `GET /api/dev/sms-outbox`) reads.
 */
export class OutboxSmsSender implements SmsSender {
  readonly name = 'outbox' as const;
  readonly sandbox = true;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async sendCode(phone: string, code: string): Promise<void> {
    const text = `【砚】您的登录验证码为 ${code}，5分钟内有效。如非本人操作请忽略。`;
    await this.db.insert(smsOutbox).values({ phone, text, code });
    this.log.info({ phone, code }, `[sms outbox] ${phone}: ${text}`);
  }

  async list(phone?: string, limit = 50) {
    return this.db
      .select()
      .from(smsOutbox)
      .where(phone ? and(eq(smsOutbox.phone, phone)) : undefined)
      .orderBy(desc(smsOutbox.sentAt), desc(smsOutbox.id))
      .limit(limit);
  }
}
