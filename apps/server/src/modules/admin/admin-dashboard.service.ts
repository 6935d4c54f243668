import { ADMIN_DASHBOARD_MAX_DAYS, ErrorCode, type AdminDashboard } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import type { DashboardRepo } from './dashboard.repo.js';
import type { AdminActor, AuditService } from './audit.service.js';
import type { Db } from '../../db/client.js';

const DAY_MS = 86_400_000;
const CN_MS = 8 * 3_600_000;
const FAILED_SHOWN = 50;

/** yyyy-MM-dd of the China calendar day `d` falls on. */
const chinaDay = (d: Date) => new Date(d.getTime() + CN_MS).toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00+08:00`);

/** 仪表盘: per-day figures over a range of China days, and the job queue (depth, failures, retry). */
export class AdminDashboardService {
  constructor(
    private readonly repo: DashboardRepo,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly db: Db,
  ) {}

  async dashboard(q: { from?: string | undefined; to?: string | undefined }): Promise<AdminDashboard> {
    const to = q.to ?? chinaDay(this.clock.now());
    const from = q.from ?? chinaDay(new Date(startOf(to).getTime() - 29 * DAY_MS));
    const start = startOf(from);
    const end = new Date(startOf(to).getTime() + DAY_MS);
    const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
    if (days < 1) throw appError(ErrorCode.VALIDATION, '开始日期 from 不能晚于结束日期 to');
    if (days > ADMIN_DASHBOARD_MAX_DAYS) throw appError(ErrorCode.VALIDATION, `日期范围 from 到 to 最多${ADMIN_DASHBOARD_MAX_DAYS}天`);

    const [signups, dau, paid, payingUsers, refunds, tasks, publish, jobs, failed] = await Promise.all([
      this.repo.signups(start, end),
      this.repo.dau(start, end),
      this.repo.paid(start, end),
      this.repo.payingUsers(start, end),
      this.repo.refunds(start, end),
      this.repo.tasksByStatus(start, end),
      this.repo.publishOutcomes(start, end),
      this.jobs.counts(),
      this.jobs.failed(FAILED_SHOWN),
    ]);
    const byDay = <T extends { day: string }>(rows: T[]) => new Map(rows.map((r) => [r.day, r]));
    const s = byDay(signups);
    const d = byDay(dau);
    const p = byDay(paid);
    const r = byDay(refunds);
    const series = Array.from({ length: days }, (_, i) => {
      const day = chinaDay(new Date(start.getTime() + i * DAY_MS));
      const refundFen = r.get(day)?.fen ?? 0;
      return {
        day,
        signups: s.get(day)?.n ?? 0,
        dau: d.get(day)?.n ?? 0,
        payingUsers: p.get(day)?.users ?? 0,
        revenueFen: (p.get(day)?.fen ?? 0) - refundFen,
        refundFen,
      };
    });
    const succeeded = publish.find((x) => x.status === 'succeeded')?.n ?? 0;
    const failedPublish = publish.find((x) => x.status === 'failed')?.n ?? 0;
    const sum = (k: 'signups' | 'revenueFen' | 'refundFen') => series.reduce((a, x) => a + x[k], 0);
    return {
      from,
      to,
      totals: {
        signups: sum('signups'),
        payingUsers,
        revenueFen: sum('revenueFen'),
        refundFen: sum('refundFen'),
        publishSucceeded: succeeded,
        publishFailed: failedPublish,
        publishSuccessRate: succeeded + failedPublish ? succeeded / (succeeded + failedPublish) : null,
      },
      days: series,
      tasks,
      queue: { kind: this.jobs.kind, jobs, failed: failed.map((f) => ({ ...f, failedAt: f.failedAt.toISOString() })) },
    };
  }

  /** Runs a failed job again. The audit entry is written first: the retry itself is not transactional (it is in the queue). */
  async retry(actor: AdminActor, name: string, id: string): Promise<{ retried: true }> {
    const job = (await this.jobs.failed(500)).find((f) => f.name === name && f.id === id);
    if (!job) throw appError(ErrorCode.NOT_FOUND, '该失败任务不存在或已重试');
    await this.db.transaction((tx) =>
      this.audit.record(tx, actor, {
        action: 'jobs.retry',
        targetType: 'job',
        targetId: `${name}:${id}`,
        before: { error: job.error, attempts: job.attempts },
        after: { retried: true },
      }),
    );
    if (!(await this.jobs.retry(name, id))) throw appError(ErrorCode.NOT_FOUND, '该失败任务不存在或已重试');
    return { retried: true };
  }
}
