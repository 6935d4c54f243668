import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { drafts, homeInputs, writingTaskEvents, writingTasks } from '../../db/schema/index.js';

export type TaskRow = typeof writingTasks.$inferSelect;
export type TaskEventRow = typeof writingTaskEvents.$inferSelect;
export interface StoredTaskEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

const OPEN = ['queued', 'running'] as const;

/** Event ids aggregated with json_agg: node-postgres parses the JSON, PGlite's drizzle driver hands over its text. */
const idList = (raw: number[] | string | null | undefined): number[] => (typeof raw === 'string' ? (JSON.parse(raw) as number[]) : (raw ?? [])).map(Number);

/** Writing tasks, their event log, and the home page's saved input. */
export class WritingRepo {
  constructor(readonly db: Db) {}

  // ---- tasks ----
  async insertTask(tx: DbOrTx, values: typeof writingTasks.$inferInsert): Promise<TaskRow> {
    const [row] = await tx.insert(writingTasks).values(values).returning();
    return row!;
  }

  /**
   * A new task and its first events in one statement: atomic without a transaction, so no BEGIN/COMMIT round trips (a
   * free task's create is most of a first text's wait on the embedded database).
   */
  /**
   * New tasks and their first events, in one statement: every task with its events, or nothing at all. Each task's
   * events are numbered in the order given.
   */
  async insertTasksWithEvents(
    entries: ReadonlyArray<{ task: typeof writingTasks.$inferInsert; events: ReadonlyArray<{ type: string; data: Record<string, unknown> }> }>,
  ): Promise<Map<string, StoredTaskEvent[]>> {
    const stored = new Map<string, StoredTaskEvent[]>();
    if (!entries.length) return stored;
    const tasks = this.db
      .insert(writingTasks)
      .values(entries.map((e) => e.task))
      .returning({ id: writingTasks.id });
    const events = entries.flatMap((e) => e.events.map((ev) => ({ taskId: e.task.id, type: ev.type, data: JSON.stringify(ev.data) })));
    if (!events.length) {
      await tasks;
      return stored;
    }
    const rows = sql.join(
      events.map((e, i) => sql`(${i}::integer, ${e.taskId}::text, ${e.type}::text, ${e.data}::jsonb)`),
      sql`, `,
    );
    const result = (await this.db.execute(
      sql`with task as (${tasks.getSQL()}) insert into ${writingTaskEvents} ("task_id", "type", "data")
        select e.task_id, e.type, e.data from (values ${rows}) as e(ord, task_id, type, data) join task on task.id = e.task_id order by e.ord
        returning ${writingTaskEvents.id}, ${writingTaskEvents.taskId}`,
    )) as unknown as { rows: Array<{ id: string | number; task_id: string }> };
    // One statement takes its ids from the sequence row by row, in the order it inserts them (e.ord).
    const ids = new Map<string, number[]>();
    for (const r of result.rows) ids.set(r.task_id, [...(ids.get(r.task_id) ?? []), Number(r.id)]);
    for (const e of entries) {
      const own = (ids.get(e.task.id) ?? []).sort((a, b) => a - b);
      stored.set(
        e.task.id,
        e.events.map((ev, i) => ({ id: own[i]!, type: ev.type, data: ev.data })),
      );
    }
    return stored;
  }

  async task(id: string, db: DbOrTx = this.db): Promise<TaskRow | undefined> {
    const [row] = await db.select().from(writingTasks).where(eq(writingTasks.id, id));
    return row;
  }

  /** Takes a task to run: queued, or running with a heartbeat older than `staleBefore` (its worker died). */
  async claim(id: string, now: Date, staleBefore: Date): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(writingTasks)
      .set({ status: 'running', runs: sql`${writingTasks.runs} + 1`, heartbeatAt: now })
      .where(
        and(
          eq(writingTasks.id, id),
          or(eq(writingTasks.status, 'queued'), and(eq(writingTasks.status, 'running'), or(isNull(writingTasks.heartbeatAt), lt(writingTasks.heartbeatAt, staleBefore)))),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Only while running, and (given `run`) only by the run that claimed it: a task failed or finished elsewhere, or
   * taken over by another worker after a missed heartbeat, is not written to again by the old run.
   */
  async updateRunning(tx: DbOrTx, id: string, values: Partial<typeof writingTasks.$inferInsert>, run?: number): Promise<boolean> {
    const conds = [eq(writingTasks.id, id), eq(writingTasks.status, 'running')];
    if (run !== undefined) conds.push(eq(writingTasks.runs, run));
    const rows = await tx
      .update(writingTasks)
      .set(values)
      .where(and(...conds))
      .returning({ id: writingTasks.id });
    return rows.length === 1;
  }

  /**
   * Many running tasks' stream writes in one statement (group commit, and no BEGIN/COMMIT round trips: a single
   * statement is atomic): each task's text, title and heartbeat are set only while it is running under the given run
   * (as updateRunning), and its events are appended only then, in the order given (ids follow it). Returns the tasks
   * that were still theirs, each with the ids its events got and `after`: the task's last event id before them, so that a
   * stream in this process that has sent exactly up to `after` can send them from memory instead of reading them back.
   * At 200 streams the per-flush transactions (four round trips each) were most of the database's work.
   */
  async writeRunning(
    entries: ReadonlyArray<{ taskId: string; run?: number; text: string; title: string; events: ReadonlyArray<{ type: string; data: Record<string, unknown> }> }>,
    heartbeatAt: Date,
  ): Promise<Map<string, { after: number; ids: number[] }>> {
    if (!entries.length) return new Map();
    // A task written twice in one batch: its latest text is the one kept (its events all go, in order).
    const latest = [...new Map(entries.map((e) => [e.taskId, e])).values()];
    const tasks = sql.join(
      latest.map((e) => sql`(${e.taskId}::text, ${e.run ?? null}::integer, ${e.text}::text, ${e.title}::text)`),
      sql`, `,
    );
    const events = entries.flatMap((e) => e.events.map((ev) => ({ taskId: e.taskId, type: ev.type, data: JSON.stringify(ev.data) })));
    const update = sql`update ${writingTasks} set "text" = v.text, "title" = v.title, "heartbeat_at" = ${heartbeatAt.toISOString()}::timestamptz
        from (values ${tasks}) as v(id, run, text, title)
        where ${writingTasks.id} = v.id and ${writingTasks.status} = 'running' and (v.run is null or ${writingTasks.runs} = v.run)
        returning ${writingTasks.id}`;
    const statement = events.length
      ? sql`with owned as (${update}), appended as (
          insert into ${writingTaskEvents} ("task_id", "type", "data")
          select e.task_id, e.type, e.data from (values ${sql.join(
            events.map((ev, i) => sql`(${i}::integer, ${ev.taskId}::text, ${ev.type}::text, ${ev.data}::jsonb)`),
            sql`, `,
          )}) as e(ord, task_id, type, data)
          join owned on owned.id = e.task_id order by e.ord
          returning ${writingTaskEvents.id}, ${writingTaskEvents.taskId}
        )
        -- The WITH parts do not see each other's writes: max(id) here is the task's last event before this statement.
        select o.id,
          (select coalesce(max(ev.id), 0) from ${writingTaskEvents} ev where ev.task_id = o.id)::text as after,
          (select coalesce(json_agg(a.id order by a.id), '[]'::json) from appended a where a.task_id = o.id) as ids
        from owned o`
      : update;
    const result = (await this.db.execute(statement)) as unknown as { rows: Array<{ id: string; after?: string; ids?: number[] | string }> };
    return new Map(result.rows.map((r) => [r.id, { after: Number(r.after ?? 0), ids: idList(r.ids) }]));
  }

  /** The single transition to failed: true for exactly one caller (given `run`, only the run that claimed it). */
  async markFailed(tx: DbOrTx, id: string, values: Partial<typeof writingTasks.$inferInsert>, run?: number): Promise<TaskRow | undefined> {
    const conds = [eq(writingTasks.id, id), inArray(writingTasks.status, [...OPEN])];
    if (run !== undefined) conds.push(eq(writingTasks.runs, run));
    const [row] = await tx
      .update(writingTasks)
      .set({ ...values, status: 'failed' })
      .where(and(...conds))
      .returning();
    return row;
  }

  /** Start-up with the database to itself: every running task lost its process; make them claimable now. */
  async releaseRunning(): Promise<number> {
    const rows = await this.db.update(writingTasks).set({ heartbeatAt: null }).where(eq(writingTasks.status, 'running')).returning({ id: writingTasks.id });
    return rows.length;
  }

  /** What the recovery sweep (every few seconds) needs of each unfinished task: not its input or text so far. */
  async openTasks(): Promise<Array<Pick<TaskRow, 'id' | 'status' | 'runs' | 'heartbeatAt'>>> {
    return this.db
      .select({ id: writingTasks.id, status: writingTasks.status, runs: writingTasks.runs, heartbeatAt: writingTasks.heartbeatAt })
      .from(writingTasks)
      .where(inArray(writingTasks.status, [...OPEN]));
  }

  /**
   * A running task's success in one statement (atomic without a transaction, so no BEGIN/COMMIT round trips): the task
   * set succeeded, only while it runs under `run`; its draft (when `draft` is given) inserted with an id drawn first so
   * the task points at it; its last events appended in order, the `done` event's data given the draft id. Undefined when
   * the task was no longer this run's (failed or taken over elsewhere): then nothing is written. `db`: the caller's
   * transaction when the finish goes with other writes (a truncated text's refund).
   */
  async finishRunning(
    f: {
      taskId: string;
      run: number;
      text: string;
      title: string;
      usage: TaskRow['usage'];
      now: Date;
      draft: { userId: number; markdown: string; html: string } | null;
      /** The run's last events, ending with `done`: never empty. */
      events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>;
      /** What the creator is told about a finished task (its error code and message), e.g. that the text may be incomplete. */
      note?: { code: number; msg: string };
    },
    db: DbOrTx = this.db,
  ): Promise<{ draftId: number | null; events: StoredTaskEvent[] } | undefined> {
    const now = f.now.toISOString();
    const note = f.note ? sql`, "error_code" = ${f.note.code}::integer, "error_msg" = ${f.note.msg}::text` : sql``;
    const draftId = f.draft ? sql`nextval(pg_get_serial_sequence('drafts', 'id'))` : sql`null::bigint`;
    const events = sql`, appended as (
          insert into ${writingTaskEvents} ("task_id", "type", "data")
          select done.id, e.type, case when e.type = 'done' then e.data || jsonb_build_object('draftId', done.draft_id) else e.data end
          from done, (values ${sql.join(
            f.events.map((e, i) => sql`(${i}::integer, ${e.type}::text, ${JSON.stringify(e.data)}::jsonb)`),
            sql`, `,
          )}) as e(ord, type, data) order by e.ord
          returning ${writingTaskEvents.id}
        )`;
    const draft = f.draft
      ? sql`, made as (
          insert into ${drafts} ("id", "user_id", "title", "html", "markdown", "task_id", "created_at", "updated_at")
          select done.draft_id, ${f.draft.userId}::bigint, ${f.title}::text, ${f.draft.html}::text, ${f.draft.markdown}::text, done.id, ${now}::timestamptz, ${now}::timestamptz
          from done returning ${drafts.id}
        )`
      : sql``;
    const result = (await db.execute(sql`with drawn as (select ${draftId} as id), done as (
        update ${writingTasks} set "status" = 'succeeded', "text" = ${f.text}::text, "title" = ${f.title}::text,
          "usage" = ${f.usage === null ? null : JSON.stringify(f.usage)}::jsonb, "draft_id" = drawn.id,
          "finished_at" = ${now}::timestamptz, "heartbeat_at" = ${now}::timestamptz${note}
        from drawn
        where ${writingTasks.id} = ${f.taskId} and ${writingTasks.status} = 'running' and ${writingTasks.runs} = ${f.run}
        returning ${writingTasks.id}, ${writingTasks.draftId}
      )${draft}${events}
      select done.draft_id::text as draft_id, (select coalesce(json_agg(a.id order by a.id), '[]'::json) from appended a) as ids from done`)) as unknown as {
      rows: Array<{ draft_id: string | null; ids: number[] | string }>;
    };
    const [row] = result.rows;
    if (!row) return undefined;
    const finishedDraftId = row.draft_id === null ? null : Number(row.draft_id);
    const ids = idList(row.ids);
    return {
      draftId: finishedDraftId,
      events: f.events.map((e, i) => ({ id: ids[i]!, type: e.type, data: e.type === 'done' ? { ...e.data, draftId: finishedDraftId } : e.data })),
    };
  }

  /** Returns the events as stored (with their ids, in the order given). */
  async appendEvents(tx: DbOrTx, taskId: string, events: Array<{ type: string; data: Record<string, unknown> }>): Promise<StoredTaskEvent[]> {
    if (!events.length) return [];
    const rows = await tx
      .insert(writingTaskEvents)
      .values(events.map((e) => ({ taskId, type: e.type, data: e.data })))
      .returning({ id: writingTaskEvents.id });
    // One statement takes its ids from the sequence row by row, in the order of its VALUES.
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    return events.map((e, i) => ({ id: ids[i]!, type: e.type, data: e.data }));
  }

  async eventsAfter(taskId: string, afterId: number, limit = 500): Promise<TaskEventRow[]> {
    return this.db
      .select()
      .from(writingTaskEvents)
      .where(and(eq(writingTaskEvents.taskId, taskId), gt(writingTaskEvents.id, afterId)))
      .orderBy(asc(writingTaskEvents.id))
      .limit(limit);
  }

  /**
   * The events after `afterId` of a task of `userId`'s, in one query with the check that the task is theirs: undefined
   * when it is not (or does not exist). What a stream reads before its first bytes.
   */
  async ownedEventsAfter(taskId: string, userId: number, afterId: number, limit: number): Promise<TaskEventRow[] | undefined> {
    const result = (await this.db.execute(sql`
      select e.id, e.task_id, e.type, e.data, e.created_at from ${writingTasks} t
      left join lateral (
        select ev.id, ev.task_id, ev.type, ev.data, ev.created_at from ${writingTaskEvents} ev
        where ev.task_id = t.id and ev.id > ${afterId} order by ev.id limit ${limit}
      ) e on true
      where t.id = ${taskId} and t.user_id = ${userId}`)) as unknown as {
      rows: Array<{ id: string | number | null; task_id: string; type: string; data: Record<string, unknown>; created_at: string | Date }>;
    };
    if (!result.rows.length) return undefined;
    // No event after afterId: the join's one row of nulls.
    return result.rows.filter((r) => r.id !== null).map((r) => ({ id: Number(r.id), taskId: r.task_id, type: r.type, data: r.data, createdAt: new Date(r.created_at) }));
  }

  // ---- home input ----
  async homeInput(userId: number, createType: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await this.db
      .select()
      .from(homeInputs)
      .where(and(eq(homeInputs.userId, userId), eq(homeInputs.createType, createType)));
    return row?.value;
  }

  async saveHomeInput(userId: number, createType: string, value: Record<string, unknown>): Promise<void> {
    await this.db
      .insert(homeInputs)
      .values({ userId, createType, value })
      .onConflictDoUpdate({ target: [homeInputs.userId, homeInputs.createType], set: { value, updatedAt: sql`now()` } });
  }
}
