import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { smsCodes } from '../../db/schema/index.js';

export type SmsCodeRow = typeof smsCodes.$inferSelect;

/** Every query on verification codes; codes are stored only as HMACs. */
export class SmsCodeRepo {
  constructor(private readonly db: DbOrTx) {}

  /** Runs `fn` in one transaction, with a repo bound to it. */
  transaction<T>(fn: (repo: SmsCodeRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SmsCodeRepo(tx)));
  }

  /** Serialises work on one key (a phone, an IP) until the surrounding transaction ends. */
  async lock(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
  }

  async lastSentAt(phone: string): Promise<Date | undefined> {
    const [last] = await this.db.select({ createdAt: smsCodes.createdAt }).from(smsCodes).where(eq(smsCodes.phone, phone)).orderBy(desc(smsCodes.createdAt)).limit(1);
    return last?.createdAt;
  }

  async countForPhoneSince(phone: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gte(smsCodes.createdAt, since)));
    return row?.n ?? 0;
  }

  async countForIpSince(ip: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, ip), gte(smsCodes.createdAt, since)));
    return row?.n ?? 0;
  }

  /** Voids every live code of the phone (only the newest code is valid). */
  async voidLive(phone: string, at: Date): Promise<void> {
    await this.db
      .update(smsCodes)
      .set({ voidedAt: at })
      .where(and(eq(smsCodes.phone, phone), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)));
  }

  async insert(values: typeof smsCodes.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(smsCodes).values(values).returning({ id: smsCodes.id });
    return row!.id;
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(smsCodes).where(eq(smsCodes.id, id));
  }

  /** The newest live code of the phone, locked for the surrounding transaction. */
  async newestLiveForUpdate(phone: string): Promise<SmsCodeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), isNull(smsCodes.usedAt), isNull(smsCodes.voidedAt)))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1)
      .for('update');
    return row;
  }

  async setWrongTries(id: number, tries: number, voidedAt: Date | null): Promise<void> {
    await this.db.update(smsCodes).set({ wrongTries: tries, voidedAt }).where(eq(smsCodes.id, id));
  }

  /** Marks the code used; false when another request used it first. */
  async markUsed(id: number, at: Date): Promise<boolean> {
    const used = await this.db
      .update(smsCodes)
      .set({ usedAt: at })
      .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt)))
      .returning({ id: smsCodes.id });
    return used.length === 1;
  }
}
