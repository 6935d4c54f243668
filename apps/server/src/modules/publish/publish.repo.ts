import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { drafts, graphicPosts, platformAccounts, platformComments, platformLogins, publishJobs, publishTasks, writingTasks } from '../../db/schema/index.js';
import { OFFLINE_MODEL_ID } from '../../integrations/llm/index.js';

export type AccountRow = typeof platformAccounts.$inferSelect;
export type LoginRow = typeof platformLogins.$inferSelect;
export type TaskRow = typeof publishTasks.$inferSelect;
export type JobRow = typeof publishJobs.$inferSelect;
export type CommentRow = typeof platformComments.$inferSelect;
/** What pacing needs of a job: when it runs or ran, and its task's chosen time. */
export interface PacedJobRow {
  accountId: number;
  platform: string;
  status: string;
  runAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  scheduleAt: Date | null;
}

export class PublishRepo {
  constructor(
    readonly db: Db,
    /** Told after every write to an account row (cached unread counts are dropped in every process). */
    private readonly accountWritten: (id: number) => void = () => undefined,
  ) {}

  // --- logins ---
  async insertLogin(row: typeof platformLogins.$inferInsert) {
    await this.db.insert(platformLogins).values(row);
  }
  async login(id: string): Promise<LoginRow | undefined> {
    const [row] = await this.db.select().from(platformLogins).where(eq(platformLogins.id, id));
    return row;
  }
  async updateLogin(id: string, patch: Partial<typeof platformLogins.$inferInsert>) {
    await this.db.update(platformLogins).set(patch).where(eq(platformLogins.id, id));
  }

  // --- accounts ---
  async account(id: number): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(platformAccounts)
      .where(and(eq(platformAccounts.id, id), isNull(platformAccounts.unboundAt)));
    return row;
  }
  async liveAccount(userId: number, platform: string, platformUserId: string): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(platformAccounts)
      .where(
        and(eq(platformAccounts.userId, userId), eq(platformAccounts.platform, platform), eq(platformAccounts.platformUserId, platformUserId), isNull(platformAccounts.unboundAt)),
      );
    return row;
  }
  async insertAccount(row: typeof platformAccounts.$inferInsert): Promise<AccountRow> {
    const [created] = await this.db.insert(platformAccounts).values(row).returning();
    return created!;
  }
  async updateAccount(id: number, patch: Partial<typeof platformAccounts.$inferInsert>): Promise<AccountRow | undefined> {
    const [row] = await this.db.update(platformAccounts).set(patch).where(eq(platformAccounts.id, id)).returning();
    this.accountWritten(id);
    return row;
  }
  /** What the 15 s unread poll needs of a bound account: its owner and the counts stored by the last sync. */
  async accountUnread(id: number): Promise<Pick<AccountRow, 'userId' | 'platform' | 'unread'> | undefined> {
    const [row] = await this.db
      .select({ userId: platformAccounts.userId, platform: platformAccounts.platform, unread: platformAccounts.unread })
      .from(platformAccounts)
      .where(and(eq(platformAccounts.id, id), isNull(platformAccounts.unboundAt)));
    return row;
  }
  async listAccounts(userId: number, q: { platform?: string; accountName?: string; top?: boolean; offset: number; limit: number }) {
    const where = and(
      eq(platformAccounts.userId, userId),
      isNull(platformAccounts.unboundAt),
      q.platform ? eq(platformAccounts.platform, q.platform) : undefined,
      q.accountName ? ilike(platformAccounts.accountName, `%${q.accountName.replace(/[%_\\]/g, (c) => `\\${c}`)}%`) : undefined,
      q.top === undefined ? undefined : eq(platformAccounts.top, q.top),
    );
    const rows = await this.db
      .select()
      .from(platformAccounts)
      .where(where)
      .orderBy(desc(platformAccounts.top), desc(platformAccounts.createdAt), desc(platformAccounts.id))
      .offset(q.offset)
      .limit(q.limit);
    const [total] = await this.db.select({ n: count() }).from(platformAccounts).where(where);
    return { rows, total: total?.n ?? 0 };
  }
  async countAccounts(userId: number) {
    return this.db
      .select({ platform: platformAccounts.platform, status: platformAccounts.status, n: count() })
      .from(platformAccounts)
      .where(and(eq(platformAccounts.userId, userId), isNull(platformAccounts.unboundAt)))
      .groupBy(platformAccounts.platform, platformAccounts.status);
  }
  /** Flips an active account to expired; the row when this call did it, undefined when it already was. */
  async expireIfActive(id: number, reason: string, now: Date): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .update(platformAccounts)
      .set({ status: 'expired', statusReason: reason, updatedAt: now })
      .where(and(eq(platformAccounts.id, id), eq(platformAccounts.status, 'active')))
      .returning();
    if (row) this.accountWritten(id);
    return row;
  }
  /** Owner of an account, bound or not (history stays readable after unbinding). */
  async accountOwner(id: number): Promise<number | undefined> {
    const [row] = await this.db.select({ userId: platformAccounts.userId }).from(platformAccounts).where(eq(platformAccounts.id, id));
    return row?.userId;
  }
  async activeAccounts(): Promise<AccountRow[]> {
    return this.db
      .select()
      .from(platformAccounts)
      .where(and(isNull(platformAccounts.unboundAt), eq(platformAccounts.status, 'active')))
      .orderBy(asc(platformAccounts.id));
  }

  // --- drafts (owned by the writing module; read only) ---
  async draft(userId: number, id: number) {
    const [row] = await this.db
      .select({ title: drafts.title, html: drafts.html, markdown: drafts.markdown, taskId: drafts.taskId })
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.userId, userId), isNull(drafts.deletedAt)));
    return row;
  }

  /**
   * Whether a writing task's output was made with a model: its text by a model other than the offline writer, or any
   * of its note's pictures drawn by one. Drives the platforms' AI-content declarations.
   */
  async madeWithModel(taskId: string): Promise<boolean> {
    const [task] = await this.db.select({ modelId: writingTasks.modelId }).from(writingTasks).where(eq(writingTasks.id, taskId));
    if (task && task.modelId !== OFFLINE_MODEL_ID) return true;
    const [post] = await this.db.select({ cards: graphicPosts.cards }).from(graphicPosts).where(eq(graphicPosts.taskId, taskId));
    return !!post?.cards.some((c) => c.source === 'ai');
  }

  // --- tasks and jobs ---
  async insertTask(task: typeof publishTasks.$inferInsert, jobs: (typeof publishJobs.$inferInsert)[]) {
    await this.db.transaction(async (tx) => {
      await tx.insert(publishTasks).values(task);
      await tx.insert(publishJobs).values(jobs);
    });
  }
  /**
   * The accounts' jobs that count for pacing (queued, running, succeeded) whose time may fall at or after `since`
   * (run, finish or chosen time), every later one included.
   */
  async pacedJobs(userId: number, accountIds: number[], since: Date, db: DbOrTx = this.db): Promise<PacedJobRow[]> {
    if (!accountIds.length) return [];
    return db
      .select({
        accountId: publishJobs.accountId,
        platform: publishJobs.platform,
        status: publishJobs.status,
        runAt: publishJobs.runAt,
        startedAt: publishJobs.startedAt,
        finishedAt: publishJobs.finishedAt,
        scheduleAt: publishTasks.scheduleAt,
      })
      .from(publishJobs)
      .innerJoin(publishTasks, eq(publishTasks.id, publishJobs.publishId))
      .where(
        and(
          eq(publishJobs.userId, userId),
          inArray(publishJobs.accountId, accountIds),
          inArray(publishJobs.status, ['queued', 'running', 'succeeded']),
          or(gte(publishJobs.runAt, since), gte(publishJobs.finishedAt, since), gte(publishJobs.startedAt, since), gte(publishTasks.scheduleAt, since)),
        ),
      );
  }
  /**
   * Inserts a task and its jobs with the `paced` accounts' rows locked (FOR UPDATE, in id order), so two requests
   * for one account never both read the same free slot: `plan` gets the jobs already there (see `pacedJobs`) and may
   * change the rows or throw, which stores nothing.
   */
  async insertTaskPaced(
    task: typeof publishTasks.$inferInsert,
    jobs: (typeof publishJobs.$inferInsert)[],
    paced: { userId: number; accountIds: number[]; since: Date },
    plan: (existing: PacedJobRow[]) => void,
  ) {
    await this.db.transaction(async (tx) => {
      const ids = [...paced.accountIds].sort((a, b) => a - b);
      if (ids.length) await tx.select({ id: platformAccounts.id }).from(platformAccounts).where(inArray(platformAccounts.id, ids)).orderBy(asc(platformAccounts.id)).for('update');
      plan(await this.pacedJobs(paced.userId, ids, paced.since, tx));
      await tx.insert(publishTasks).values(task);
      await tx.insert(publishJobs).values(jobs);
    });
  }
  async task(id: string): Promise<TaskRow | undefined> {
    const [row] = await this.db.select().from(publishTasks).where(eq(publishTasks.id, id));
    return row;
  }
  async job(id: string): Promise<JobRow | undefined> {
    const [row] = await this.db.select().from(publishJobs).where(eq(publishJobs.id, id));
    return row;
  }
  async jobsOf(publishId: string) {
    return this.db
      .select({ job: publishJobs, accountName: platformAccounts.accountName })
      .from(publishJobs)
      .innerJoin(platformAccounts, eq(platformAccounts.id, publishJobs.accountId))
      .where(eq(publishJobs.publishId, publishId))
      .orderBy(asc(publishJobs.createdAt), asc(publishJobs.id));
  }
  /** Claims a queued job for one attempt; undefined when someone else has it or it is finished. */
  /**
   * One caller wins: a queued job, or a running one whose heartbeat (`updatedAt`) is older than `staleBefore` (its
   * publisher died). A running job with a live heartbeat is never taken, however many publishers are asked to run it.
   */
  async claimJob(id: string, now: Date, staleBefore: Date): Promise<JobRow | undefined> {
    const claimable = or(eq(publishJobs.status, 'queued'), and(eq(publishJobs.status, 'running'), lt(publishJobs.updatedAt, staleBefore)));
    const [row] = await this.db
      .update(publishJobs)
      .set({ status: 'running', attempts: sql`${publishJobs.attempts} + 1`, startedAt: now, updatedAt: now })
      .where(and(eq(publishJobs.id, id), claimable))
      .returning();
    return row;
  }
  async heartbeat(id: string, now: Date) {
    await this.db
      .update(publishJobs)
      .set({ updatedAt: now })
      .where(and(eq(publishJobs.id, id), eq(publishJobs.status, 'running')));
  }
  async updateJob(id: string, patch: Partial<typeof publishJobs.$inferInsert>) {
    await this.db.update(publishJobs).set(patch).where(eq(publishJobs.id, id));
  }
  async appendHistory(id: string, entry: JobRow['history'][number], patch: Partial<typeof publishJobs.$inferInsert>) {
    await this.db
      .update(publishJobs)
      .set({ ...patch, history: sql`${publishJobs.history} || ${JSON.stringify([entry])}::jsonb` })
      .where(eq(publishJobs.id, id));
  }
  /** One user's publish jobs (optionally one account's), newest first, with their task and account name. */
  async records(userId: number, q: { accountId?: number | undefined; offset: number; limit: number }) {
    const where = and(eq(publishJobs.userId, userId), q.accountId === undefined ? undefined : eq(publishJobs.accountId, q.accountId));
    const rows = await this.db
      .select({ job: publishJobs, task: publishTasks, accountName: platformAccounts.accountName })
      .from(publishJobs)
      .innerJoin(publishTasks, eq(publishTasks.id, publishJobs.publishId))
      .innerJoin(platformAccounts, eq(platformAccounts.id, publishJobs.accountId))
      .where(where)
      .orderBy(desc(publishJobs.createdAt), desc(publishJobs.id))
      .offset(q.offset)
      .limit(q.limit);
    const [total] = await this.db.select({ n: count() }).from(publishJobs).where(where);
    return { rows, total: total?.n ?? 0 };
  }
  /** Queued jobs, and running ones whose heartbeat is older than `staleBefore`. */
  /** Published jobs of an account the platform was still reviewing (or had not said), newest first. */
  async jobsUnderReview(accountId: number, since: Date, limit: number): Promise<JobRow[]> {
    return this.db
      .select()
      .from(publishJobs)
      .where(
        and(
          eq(publishJobs.accountId, accountId),
          eq(publishJobs.status, 'succeeded'),
          eq(publishJobs.platformStatus, 'reviewing'),
          isNotNull(publishJobs.platformNoteId),
          gte(publishJobs.finishedAt, since),
        ),
      )
      .orderBy(desc(publishJobs.finishedAt))
      .limit(limit);
  }

  async orphanedJobs(staleBefore: Date): Promise<JobRow[]> {
    return this.db
      .select()
      .from(publishJobs)
      .where(or(eq(publishJobs.status, 'queued'), and(eq(publishJobs.status, 'running'), lt(publishJobs.updatedAt, staleBefore))));
  }
  async resetRunning(now: Date) {
    await this.db.update(publishJobs).set({ status: 'queued', updatedAt: now }).where(eq(publishJobs.status, 'running'));
  }

  // --- comments ---
  /** Stores comments not seen before; returns the ones that are new. */
  async insertComments(rows: (typeof platformComments.$inferInsert)[]): Promise<CommentRow[]> {
    if (!rows.length) return [];
    return this.db.insert(platformComments).values(rows).onConflictDoNothing().returning();
  }
  async intentComments(accountId: number, offset: number, limit: number) {
    const where = and(eq(platformComments.accountId, accountId), sql`jsonb_array_length(${platformComments.intents}) > 0`);
    const rows = await this.db.select().from(platformComments).where(where).orderBy(desc(platformComments.commentedAt), desc(platformComments.id)).offset(offset).limit(limit);
    const [total] = await this.db.select({ n: count() }).from(platformComments).where(where);
    return { rows, total: total?.n ?? 0 };
  }
}
