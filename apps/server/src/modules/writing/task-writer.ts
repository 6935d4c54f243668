import type { Clock } from '../../clock.js';
import { storeInBatches } from './group-commit.js';
import type { TaskSignals } from './task-sink.js';
import type { WritingRepo } from './writing.repo.js';

/** One running task's buffered stream, to be stored with its text so far. */
export interface TaskWrite {
  taskId: string;
  /** The claim's run number: the write is fenced to it. */
  run?: number;
  text: string;
  title: string;
  events: Array<{ type: string; data: Record<string, unknown> }>;
  /** Told the task's last event id once this write is stored (its own last event's, else the one before it). */
  stored?: (lastEventId: number) => void;
}

interface Waiting {
  write: TaskWrite;
  settle: (owned: boolean) => void;
  fail: (err: unknown) => void;
}

/** Writes gathered into one transaction at most (PGlite takes a large VALUES list in its stride; this bounds its size). */
const MAX_BATCH = 500;

/**
 * How long a write that is not urgent waits for others to share its statement. Each statement is a commit, and on the
 * embedded database a commit (its WAL write) costs about as much as the rest of a write: 200 streams flushing every
 * 150 ms each were ~1,300 commits a second; gathered, they are at most 1000 / GATHER_MS.
 */
const GATHER_MS = 50;
/**
 * How much longer a task's writes before its first text wait (progress before the model call): the first text usually
 * comes within it and takes them along, one statement instead of two, and the first text never waits behind them.
 */
const BEFORE_TEXT_FACTOR = 4;

/**
 * Group commit for running tasks' streams. An urgent write (a task's first text) goes out at the end of the event
 * loop's turn when none is under way, taking every waiting write with it; other writes wait up to GATHER_MS for company. Writes that arrive while
 * one is under way go together in the next, one statement for all of them. Each task's writes stay in order because
 * its sink waits for one before handing over the next.
 */
export class TaskWriter {
  private queue: Waiting[] = [];
  private running = false;
  private gather: NodeJS.Timeout | null = null;
  /** When the gather timer fires (ms since the epoch); Infinity with no timer. */
  private gatherAt = Infinity;
  /** A send is due at the end of this turn of the event loop. */
  private turnEnd = false;

  constructor(
    private readonly repo: WritingRepo,
    private readonly signals: TaskSignals,
    private readonly clock: Clock,
    private readonly gatherMs = GATHER_MS,
  ) {}

  /**
   * `urgent`: go out now (with whatever waits); `beforeText`: a write of a task whose text has not started, which may
   * wait longer for it. Resolves true when stored, false when the task is no longer running under this run (nothing was
   * stored for it).
   */
  write(write: TaskWrite, urgent = false, beforeText = false): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.queue.push({ write, settle, fail });
      if (urgent) this.endOfTurn();
      else this.gatherBy(Date.now() + this.gatherMs * (beforeText ? BEFORE_TEXT_FACTOR : 1));
    });
  }

  /** Sends what waits no later than `at` (an earlier deadline already set stands). */
  private gatherBy(at: number) {
    if (at >= this.gatherAt) return;
    if (this.gather) clearTimeout(this.gather);
    this.gatherAt = at;
    this.gather = setTimeout(() => {
      this.gather = null;
      this.gatherAt = Infinity;
      this.kick();
    }, at - Date.now());
  }

  /**
   * Sends what is waiting for company now. A task's first text calls it: its sink sends writes one at a time, so the
   * text would otherwise wait out the gathering of the task's previous write (the progress event before the model call).
   */
  hurry() {
    if (this.queue.length) this.endOfTurn();
  }

  /**
   * Sends what waits at the end of this turn of the event loop: the first texts that arrived in it (the model thread
   * hands over every stream's chunks read in one turn together) share one statement instead of the first going alone.
   */
  private endOfTurn() {
    if (this.turnEnd) return;
    this.turnEnd = true;
    setImmediate(() => {
      this.turnEnd = false;
      this.kick();
    });
  }

  private kick() {
    if (this.gather) clearTimeout(this.gather);
    this.gather = null;
    this.gatherAt = Infinity;
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      await storeInBatches(this.queue, MAX_BATCH, (batch) => this.store(batch));
    } finally {
      this.running = false;
    }
  }

  private async store(batch: Waiting[]): Promise<void> {
    const owned = await this.repo.writeRunning(
      batch.map((w) => w.write),
      this.clock.now(),
    );
    // A task written twice in this batch: its events' ids are shared out in order, each write continuing the last.
    const next = new Map<string, { after: number; ids: number[] }>();
    for (const [taskId, got] of owned) next.set(taskId, { after: got.after, ids: [...got.ids] });
    for (const w of batch) {
      const got = next.get(w.write.taskId);
      if (got && w.write.events.length) {
        const ids = got.ids.splice(0, w.write.events.length);
        const events = w.write.events.map((e, i) => ({ id: ids[i]!, type: e.type, data: e.data }));
        // Only a whole, numbered batch can be sent from memory; otherwise the streams read it back.
        this.signals.notify(w.write.taskId, ids.length === events.length ? { after: got.after, events } : undefined);
        got.after = ids[ids.length - 1] ?? got.after;
      }
      if (got) w.write.stored?.(got.after);
      w.settle(got !== undefined);
    }
  }
}
