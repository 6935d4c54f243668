import type { AdminAuditEntry, AdminRole } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import { toCsv } from '../data/data.service.js';
import type { AuditFilter, AuditRepo } from './audit.repo.js';

/** Who did a console write, from where: what every audit entry starts from. */
export interface AdminActor {
  userId: number;
  role: AdminRole;
  sessionId: number;
  ip: string | null;
  requestId: string | null;
}

export interface AuditChange {
  /** Dotted verb, e.g. `user.points.grant`, `order.refund`, `role.grant`. */
  action: string;
  targetType: string;
  targetId: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Changes no console user made: the server's CLI, or a payment gateway's verified answer (refund results). */
export interface SystemActor {
  system: 'cli' | 'gateway';
}
export const cliActor: SystemActor = { system: 'cli' };
export const gatewayActor: SystemActor = { system: 'gateway' };

const EXPORT_BATCH = 500;

/** Writes and reads the append-only audit log. */
export class AuditService {
  constructor(private readonly repo: AuditRepo) {}

  /** Inside the caller's transaction (`tx`): the entry commits with the change or not at all. */
  async record(tx: DbOrTx, actor: AdminActor | SystemActor, change: AuditChange): Promise<void> {
    const person = 'system' in actor ? null : actor;
    await this.repo.insert(tx, {
      actorId: person?.userId ?? null,
      actorRole: person?.role ?? null,
      action: change.action,
      targetType: change.targetType,
      targetId: change.targetId === null ? null : String(change.targetId),
      before: change.before ?? null,
      after: change.after ?? null,
      ip: person?.ip ?? null,
      // System entries name their source here (the console shows them as 系统).
      requestId: person ? person.requestId : (actor as SystemActor).system,
    });
  }

  async search(f: AuditFilter, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.page(f, pageNum, pageSize);
    return { records: rows.map(toEntry), total, pageNum, pageSize };
  }

  /** The whole selection as CSV (newest first), read in batches. */
  async exportCsv(f: AuditFilter): Promise<string> {
    const lines: Array<Array<string | number | null>> = [];
    for (let before: number | null = null; ;) {
      const rows = await this.repo.batch(f, before, EXPORT_BATCH);
      for (const r of rows.map(toEntry)) {
        lines.push([r.id, r.createdAt, r.actorId, r.actorNickname, r.actorRole, r.action, r.targetType, r.targetId, json(r.before), json(r.after), r.ip]);
      }
      if (rows.length < EXPORT_BATCH) break;
      before = rows[rows.length - 1]!.id;
    }
    return toCsv(['编号', '时间', '操作人ID', '操作人', '角色', '操作', '对象类型', '对象', '变更前', '变更后', 'IP'], lines);
  }
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

function toEntry(r: Awaited<ReturnType<AuditRepo['page']>>['rows'][number]): AdminAuditEntry {
  return { ...r, createdAt: r.createdAt.toISOString() };
}
