import type { writingTasks } from '../../db/schema/index.js';
import { storeInBatches } from './group-commit.js';
import type { StoredTaskEvent, WritingRepo } from './writing.repo.js';

type NewTask = typeof writingTasks.$inferInsert;
type FirstEvents = ReadonlyArray<{ type: string; data: Record<string, unknown> }>;

interface Waiting {
  task: NewTask;
  events: FirstEvents;
  settle: (events: StoredTaskEvent[]) => void;
  fail: (err: unknown) => void;
}

/** Creates stored together at most (bounds the statement's size). */
const MAX_BATCH = 200;

/**
 * Group commit for free tasks' creates. A create goes out at the end of the current turn of the event loop, with every
 * create read in that turn, when no insert is under way; the creates that arrive while one is (many creators starting
 * at once) go together in the next: one statement for all of them instead of one each. No create waits on a timer, and
 * a burst costs the database a few statements, not hundreds (on the embedded database an insert completes within the
 * turn that issued it, so without the wait for the turn's end no two creates would ever share one).
 */
export class TaskInserter {
  private queue: Waiting[] = [];
  private running = false;
  private scheduled = false;

  constructor(private readonly repo: Pick<WritingRepo, 'insertTasksWithEvents'>) {}

  /**
   * Resolves with the task's events as stored (numbered) once it is stored; rejects (nothing stored for it) if the
   * database refuses it.
   */
  insert(task: NewTask, events: FirstEvents): Promise<StoredTaskEvent[]> {
    return new Promise<StoredTaskEvent[]>((settle, fail) => {
      this.queue.push({ task, events, settle, fail });
      // The end of this turn of the event loop: the creates whose requests were read in it go out together.
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          if (!this.running) void this.drain();
        });
      }
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      await storeInBatches(this.queue, MAX_BATCH, async (batch) => {
        const stored = await this.repo.insertTasksWithEvents(batch);
        for (const one of batch) one.settle(stored.get(one.task.id) ?? []);
      });
    } finally {
      this.running = false;
    }
  }
}
