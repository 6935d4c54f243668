import type { StoredEvent, StoredEventBatch } from '../../http/event-stream.js';

/** Characters of text a task's log holds at most; past it, its streams read the table as for any other task. */
const MAX_CHARS = 256_000;

interface Log {
  userId: number;
  events: StoredEvent[];
  chars: number;
}

const charsOf = (e: StoredEvent) => {
  const text = (e.data as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text.length : 256;
};

/**
 * Every stored event of the tasks this process created and runs, from their first: a stream opened on such a task (the
 * creator's page opens it right after the create) gets its first page from here, with no query. A log is kept only while
 * it is known complete: it starts with the events stored by the create, takes every batch this process stores after
 * it, and is dropped at the first doubt (a signal without its batch, a gap, another process's write), past MAX_CHARS,
 * and when the run ends. Without a log, a stream reads the table.
 */
export class TaskEventLog {
  private readonly logs = new Map<string, Log>();

  /** A task just created here, with the events its create stored. */
  start(taskId: string, userId: number, events: StoredEvent[]) {
    this.logs.set(taskId, { userId, events: [...events], chars: events.reduce((n, e) => n + charsOf(e), 0) });
  }

  /** Events stored for the task (undefined: stored, but not handed over, so the log can no longer be trusted). */
  stored(taskId: string, batch?: StoredEventBatch) {
    const log = this.logs.get(taskId);
    if (!log) return;
    if (!batch || batch.after !== (log.events.at(-1)?.id ?? 0)) return void this.logs.delete(taskId);
    for (const e of batch.events) {
      log.events.push(e);
      log.chars += charsOf(e);
    }
    if (log.chars > MAX_CHARS) this.logs.delete(taskId);
  }

  end(taskId: string) {
    this.logs.delete(taskId);
  }

  /**
   * The task's events after `after` (at most `limit`): null when this process keeps no log of it (read the table), and
   * 'not-owner' when the task is not `userId`'s.
   */
  page(taskId: string, userId: number, after: number, limit: number): StoredEvent[] | null | 'not-owner' {
    const log = this.logs.get(taskId);
    if (!log) return null;
    if (log.userId !== userId) return 'not-owner';
    const from = log.events.findIndex((e) => e.id > after);
    return from < 0 ? [] : log.events.slice(from, from + limit);
  }
}
