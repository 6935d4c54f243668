import { and, asc, eq, inArray, isNull, max, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { dataAccountDays, dataNoteDays, dataNoteLatest, platformAccounts, publishJobs, publishTasks } from '../../db/schema/index.js';

/** What a snapshot hands in: the platform's day figures (the note totals are computed here). */
export type AccountDayRow = Omit<typeof dataAccountDays.$inferInsert, 'notes' | 'totalViews' | 'totalLikes' | 'totalCollects' | 'totalComments' | 'totalShares'>;
export type NoteDayRow = typeof dataNoteDays.$inferInsert;

/** End-of-day totals of a set of accounts (each account's newest snapshot on or before the day). */
export interface Totals {
  followers: number;
  notes: number;
  views: number;
  likes: number;
  collects: number;
  comments: number;
  shares: number;
}

const num = (v: unknown) => Number(v ?? 0);
const rowsOf = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
const idList = (ids: number[]) => sql.join(ids.map((i) => sql`${i}`), sql`, `);

export interface NoteFilter {
  accountIds: number[];
  platform?: string | undefined;
  q?: string | undefined;
}

/**
 * Every query of the data area; snapshots are only ever inserted (a day already stored stays as read). The dashboards
 * read the per-day note totals on data_account_days and data_note_latest, both written with the snapshot.
 */
export class DataRepo {
  constructor(private readonly db: Db) {}

  /** The user's bound accounts (optionally one), oldest first. */
  accounts(userId: number, accountId?: number) {
    const where = [eq(platformAccounts.userId, userId), isNull(platformAccounts.unboundAt)];
    if (accountId !== undefined) where.push(eq(platformAccounts.id, accountId));
    return this.db.select().from(platformAccounts).where(and(...where)).orderBy(asc(platformAccounts.id));
  }

  async lastDay(accountId: number): Promise<string | null> {
    const [r] = await this.db.select({ d: max(dataAccountDays.day) }).from(dataAccountDays).where(eq(dataAccountDays.accountId, accountId));
    return r?.d ?? null;
  }

  /**
   * Appends the days not stored yet (rows of one account, days after its newest stored one) and keeps the read models
   * in step in the same transaction: each account day carries the note totals at its end (the notes' newest figures
   * so far, carried over from data_note_latest, then each day's rows applied in order), and data_note_latest moves
   * each note to its newest day. Returns how many account days were added.
   */
  async appendDays(accountRows: AccountDayRow[], noteRows: NoteDayRow[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const accountIds = [...new Set([...accountRows, ...noteRows].map((r) => r.accountId))];
      const current = new Map<number, Map<string, Totals>>();
      if (accountIds.length) {
        const held = await tx.select().from(dataNoteLatest).where(inArray(dataNoteLatest.accountId, accountIds));
        for (const r of held) {
          const m = current.get(r.accountId) ?? new Map<string, Totals>();
          m.set(r.noteKey, { followers: 0, notes: 1, views: r.views, likes: r.likes, collects: r.collects, comments: r.comments, shares: r.shares });
          current.set(r.accountId, m);
        }
      }
      const byDay = new Map<string, NoteDayRow[]>();
      for (const n of noteRows) {
        const k = `${n.accountId}:${n.day}`;
        byDay.set(k, [...(byDay.get(k) ?? []), n]);
      }
      const withTotals = [...accountRows]
        .sort((a, b) => (a.accountId - b.accountId) || (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
        .map((row) => {
          const m = current.get(row.accountId) ?? new Map<string, Totals>();
          current.set(row.accountId, m);
          for (const n of byDay.get(`${row.accountId}:${row.day}`) ?? []) m.set(n.noteKey, { followers: 0, notes: 1, views: n.views, likes: n.likes, collects: n.collects, comments: n.comments, shares: n.shares });
          let t = { notes: 0, totalViews: 0, totalLikes: 0, totalCollects: 0, totalComments: 0, totalShares: 0 };
          for (const f of m.values()) {
            t = { notes: t.notes + 1, totalViews: t.totalViews + f.views, totalLikes: t.totalLikes + f.likes, totalCollects: t.totalCollects + f.collects, totalComments: t.totalComments + f.comments, totalShares: t.totalShares + f.shares };
          }
          return { ...row, ...t };
        });
      let added = 0;
      for (let i = 0; i < withTotals.length; i += 500) {
        const r = await tx.insert(dataAccountDays).values(withTotals.slice(i, i + 500)).onConflictDoNothing().returning({ id: dataAccountDays.id });
        added += r.length;
      }
      for (let i = 0; i < noteRows.length; i += 500) {
        await tx.insert(dataNoteDays).values(noteRows.slice(i, i + 500)).onConflictDoNothing();
      }
      // One row per note (its newest day in this batch), moved forward only.
      const newest = new Map<string, NoteDayRow>();
      for (const n of noteRows) {
        const k = `${n.accountId}:${n.noteKey}`;
        const seen = newest.get(k);
        if (!seen || seen.day < n.day) newest.set(k, n);
      }
      const latest = [...newest.values()];
      for (let i = 0; i < latest.length; i += 500) {
        await tx
          .insert(dataNoteLatest)
          .values(latest.slice(i, i + 500).map(({ id: _id, createdAt: _c, ...n }) => n))
          .onConflictDoUpdate({
            target: [dataNoteLatest.accountId, dataNoteLatest.noteKey],
            set: {
              title: sql`excluded.title`,
              url: sql`excluded.url`,
              publishedAt: sql`excluded.published_at`,
              day: sql`excluded.day`,
              views: sql`excluded.views`,
              likes: sql`excluded.likes`,
              collects: sql`excluded.collects`,
              comments: sql`excluded.comments`,
              shares: sql`excluded.shares`,
            },
            setWhere: sql`excluded.day >= ${dataNoteLatest.day}`,
          });
      }
      return added;
    });
  }

  /** Newest snapshot time per account. */
  async lastSnapshots(accountIds: number[]): Promise<Map<number, { day: string; at: Date }>> {
    if (!accountIds.length) return new Map();
    const rows = rowsOf(
      await this.db.execute(sql`select account_id, max(day)::text as day, max(created_at) as at from ${dataAccountDays} where account_id in (${idList(accountIds)}) group by account_id`),
    );
    return new Map(rows.map((r) => [num(r.account_id), { day: String(r.day), at: new Date(String(r.at)) }]));
  }

  /** Totals per account at the end of `day`: each account's newest day row on or before it (one index probe each). */
  async totalsAt(accountIds: number[], day: string): Promise<Map<number, Totals>> {
    const out = new Map<number, Totals>();
    if (!accountIds.length) return out;
    const rows = rowsOf(
      await this.db.execute(sql`
        select distinct on (account_id) account_id, followers, notes, total_views, total_likes, total_collects, total_comments, total_shares from ${dataAccountDays}
        where account_id in (${idList(accountIds)}) and day <= ${day}::date
        order by account_id, day desc`),
    );
    for (const id of accountIds) out.set(id, { followers: 0, notes: 0, views: 0, likes: 0, collects: 0, comments: 0, shares: 0 });
    for (const r of rows) {
      out.set(num(r.account_id), {
        followers: num(r.followers),
        notes: num(r.notes),
        views: num(r.total_views),
        likes: num(r.total_likes),
        collects: num(r.total_collects),
        comments: num(r.total_comments),
        shares: num(r.total_shares),
      });
    }
    return out;
  }

  /** Daily sums over the accounts, `from`..`to`. */
  async series(accountIds: number[], from: string, to: string) {
    if (!accountIds.length) return [];
    const rows = rowsOf(
      await this.db.execute(sql`
        select day::text as day, sum(followers) as followers, sum(new_followers) as new_followers, sum(views) as views, sum(likes) as likes,
               sum(collects) as collects, sum(comments) as comments, sum(shares) as shares
        from ${dataAccountDays} where account_id in (${idList(accountIds)}) and day between ${from}::date and ${to}::date
        group by day order by day`),
    );
    return rows.map((r) => ({
      date: String(r.day),
      followers: num(r.followers),
      newFollowers: num(r.new_followers),
      views: num(r.views),
      likes: num(r.likes),
      collects: num(r.collects),
      comments: num(r.comments),
      shares: num(r.shares),
    }));
  }

  /**
   * Each note's newest figures (the content table), with the draft it came from when the product published it.
   * `publishedFrom`/`publishedTo` narrow by publish day (Asia/Shanghai).
   */
  async latestNotes(
    f: NoteFilter,
    page: { sort: string; order: 'asc' | 'desc'; limit: number; offset: number; publishedFrom?: string; publishedTo?: string },
  ): Promise<{ rows: Record<string, unknown>[]; total: number }> {
    if (!f.accountIds.length) return { rows: [], total: 0 };
    const where: SQL[] = [sql`n.account_id in (${idList(f.accountIds)})`];
    if (f.q) where.push(sql`n.title ilike ${`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
    if (page.publishedFrom) where.push(sql`(n.published_at at time zone 'Asia/Shanghai')::date >= ${page.publishedFrom}::date`);
    if (page.publishedTo) where.push(sql`(n.published_at at time zone 'Asia/Shanghai')::date <= ${page.publishedTo}::date`);
    const column = { publishedAt: sql`published_at`, views: sql`views`, likes: sql`likes`, collects: sql`collects`, comments: sql`comments`, shares: sql`shares` }[page.sort] ?? sql`published_at`;
    const dir = page.order === 'asc' ? sql`asc` : sql`desc`;
    const rows = rowsOf(
      await this.db.execute(sql`
        with latest as (
          select n.id, n.account_id, n.note_key, n.title, n.url, n.published_at, n.day, n.views, n.likes, n.collects, n.comments, n.shares
          from ${dataNoteLatest} n where ${sql.join(where, sql` and `)}
        )
        select l.*, l.day::text as as_of, count(*) over () as total, j.publish_id, t.draft_id
        from latest l
        left join lateral (select publish_id from ${publishJobs} where account_id = l.account_id and platform_note_id = l.note_key order by created_at desc limit 1) j on true
        left join ${publishTasks} t on t.id = j.publish_id
        order by ${column} ${dir}, l.id ${dir}
        limit ${page.limit} offset ${page.offset}`),
    );
    return { rows, total: rows.length ? num(rows[0]!.total) : await this.countNotes(where) };
  }

  private async countNotes(where: SQL[]): Promise<number> {
    const r = rowsOf(await this.db.execute(sql`select count(*) as n from ${dataNoteLatest} n where ${sql.join(where, sql` and `)}`));
    return num(r[0]?.n);
  }

  /** Notes published in the range by weekday (0 = Monday) x hour (Asia/Shanghai), with their newest views. */
  async heatmap(accountIds: number[], from: string, to: string) {
    if (!accountIds.length) return [];
    const rows = rowsOf(
      await this.db.execute(sql`
        with latest as (
          select published_at at time zone 'Asia/Shanghai' as local, views from ${dataNoteLatest}
          where account_id in (${idList(accountIds)}) and (published_at at time zone 'Asia/Shanghai')::date between ${from}::date and ${to}::date
        )
        select (extract(isodow from local)::int - 1) as weekday, extract(hour from local)::int as hour, count(*) as notes, avg(views)::float8 as avg_views
        from latest group by 1, 2 order by 1, 2`),
    );
    return rows.map((r) => ({ weekday: num(r.weekday), hour: num(r.hour), notes: num(r.notes), avgViews: Math.round(num(r.avg_views) * 10) / 10 }));
  }

  /** Accounts with a data-capable platform, for the daily tick. */
  activeAccounts() {
    return this.db.select().from(platformAccounts).where(and(isNull(platformAccounts.unboundAt), eq(platformAccounts.status, 'active'))).orderBy(asc(platformAccounts.id));
  }

  accountsByIds(ids: number[]) {
    return ids.length ? this.db.select().from(platformAccounts).where(inArray(platformAccounts.id, ids)) : Promise.resolve([]);
  }
}
