import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** A China calendar day of a timestamp column, as yyyy-MM-dd. */
const dayOf = (col: string) => sql.raw(`to_char((${col} at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD')`);

type Rows<T> = { rows: T[] };

/**
 * The dashboard's figures, read across areas (users, sessions, orders, refunds, tasks, publish jobs) in a few grouped
 * statements over [from, to): read-only, so no area's rules are bypassed.
 */
export class DashboardRepo {
  constructor(private readonly db: Db) {}

  private async rows<T>(q: ReturnType<typeof sql>): Promise<T[]> {
    return ((await this.db.execute(q)) as unknown as Rows<T>).rows;
  }

  async signups(from: Date, to: Date) {
    return this.rows<{ day: string; n: number }>(sql`
      select ${dayOf('created_at')} as day, count(*)::int as n from users
      where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz group by 1`);
  }

  /**
   * Distinct users seen per day. Sessions keep only their start and last use, so a day counts a user who logged in,
   * whose session was last used that day, or who sent a client event (page views) that day.
   */
  async dau(from: Date, to: Date) {
    const f = from.toISOString();
    const t = to.toISOString();
    return this.rows<{ day: string; n: number }>(sql`
      select day, count(distinct user_id)::int as n from (
        select user_id, ${dayOf('created_at')} as day from sessions where created_at >= ${f}::timestamptz and created_at < ${t}::timestamptz
        union all
        select user_id, ${dayOf('last_seen_at')} from sessions where last_seen_at >= ${f}::timestamptz and last_seen_at < ${t}::timestamptz
        union all
        select user_id, ${dayOf('created_at')} from user_events where user_id is not null and created_at >= ${f}::timestamptz and created_at < ${t}::timestamptz
      ) seen group by day`);
  }

  /** Orders by the day they were paid (refunded ones included: the refund is subtracted on its own day). */
  async paid(from: Date, to: Date) {
    return this.rows<{ day: string; users: number; fen: number }>(sql`
      select ${dayOf('paid_at')} as day, count(distinct user_id)::int as users, coalesce(sum(amount_fen), 0)::int as fen from pay_orders
      where paid_at is not null and paid_at >= ${from.toISOString()}::timestamptz and paid_at < ${to.toISOString()}::timestamptz group by 1`);
  }

  async payingUsers(from: Date, to: Date): Promise<number> {
    const [row] = await this.rows<{ n: number }>(sql`
      select count(distinct user_id)::int as n from pay_orders
      where paid_at is not null and paid_at >= ${from.toISOString()}::timestamptz and paid_at < ${to.toISOString()}::timestamptz`);
    return row?.n ?? 0;
  }

  async refunds(from: Date, to: Date) {
    return this.rows<{ day: string; fen: number }>(sql`
      select ${dayOf('succeeded_at')} as day, coalesce(sum(amount_fen), 0)::int as fen from pay_refunds
      where status = 'succeeded' and succeeded_at >= ${from.toISOString()}::timestamptz and succeeded_at < ${to.toISOString()}::timestamptz group by 1`);
  }

  async tasksByStatus(from: Date, to: Date) {
    return this.rows<{ status: string; count: number }>(sql`
      select status, count(*)::int as count from writing_tasks
      where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz group by status order by status`);
  }

  /** Publish jobs that reached a final state in the range. */
  async publishOutcomes(from: Date, to: Date) {
    return this.rows<{ status: string; n: number }>(sql`
      select status, count(*)::int as n from publish_jobs
      where status in ('succeeded', 'failed') and finished_at >= ${from.toISOString()}::timestamptz and finished_at < ${to.toISOString()}::timestamptz group by status`);
  }
}
