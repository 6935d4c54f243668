import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { adminAudit, users } from '../../db/schema/index.js';

export type AuditInsert = typeof adminAudit.$inferInsert;

export interface AuditFilter {
  actor?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The append-only audit log: inserts and reads, nothing else (the database refuses UPDATE and DELETE too). */
export class AuditRepo {
  constructor(private readonly db: DbOrTx) {}

  async insert(tx: DbOrTx, values: AuditInsert): Promise<void> {
    await tx.insert(adminAudit).values(values);
  }

  private where(f: AuditFilter): SQL | undefined {
    const parts: SQL[] = [];
    if (f.actor !== undefined) parts.push(eq(adminAudit.actorId, f.actor));
    if (f.action) parts.push(eq(adminAudit.action, f.action));
    if (f.targetType) parts.push(eq(adminAudit.targetType, f.targetType));
    if (f.targetId) parts.push(eq(adminAudit.targetId, f.targetId));
    if (f.from) parts.push(gte(adminAudit.createdAt, f.from));
    if (f.to) parts.push(lt(adminAudit.createdAt, f.to));
    return parts.length ? and(...parts) : undefined;
  }

  private select() {
    return this.db
      .select({
        id: adminAudit.id,
        actorId: adminAudit.actorId,
        actorNickname: users.nickname,
        actorRole: adminAudit.actorRole,
        action: adminAudit.action,
        targetType: adminAudit.targetType,
        targetId: adminAudit.targetId,
        before: adminAudit.before,
        after: adminAudit.after,
        ip: adminAudit.ip,
        createdAt: adminAudit.createdAt,
      })
      .from(adminAudit)
      .leftJoin(users, eq(users.id, adminAudit.actorId));
  }

  async page(f: AuditFilter, pageNum: number, pageSize: number) {
    const where = this.where(f);
    const [rows, [total]] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(desc(adminAudit.id))
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize),
      this.db.select({ n: count() }).from(adminAudit).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Newest first, in batches below `beforeId` (the export streams the whole selection without holding it in memory). */
  async batch(f: AuditFilter, beforeId: number | null, size: number) {
    const where = this.where(f);
    return this.select()
      .where(beforeId === null ? where : and(where, lt(adminAudit.id, beforeId)))
      .orderBy(desc(adminAudit.id))
      .limit(size);
  }
}
