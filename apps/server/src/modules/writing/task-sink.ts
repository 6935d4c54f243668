import { EventEmitter } from 'node:events';
import type { SearchSource } from '@inkstone/shared';
import type { LlmUsage } from '../../integrations/llm/types.js';
import type { StoredEventBatch } from '../../http/event-stream.js';
import type { Sink } from './pipeline.js';
import type { TaskWriter } from './task-writer.js';

const SHUTDOWN = Symbol('shutdown');
const STORED = Symbol('stored');
const WOKEN = Symbol('woken');

/**
 * "New events for task X" for the event streams of this process: from its own writes, or from another process's over the
 * cache bus (task-event-relay.ts). A stream's poll is only a safety net.
 */
export class TaskSignals extends EventEmitter {
  closing = false;
  constructor() {
    super();
    this.setMaxListeners(0);
  }
  /** `batch`: the events just stored, numbered, for streams in this process that can send them without a read. */
  notify(taskId: string, batch?: StoredEventBatch) {
    this.emit(taskId, batch);
    this.emit(STORED, taskId, batch);
  }
  /**
   * Told the id of every task this process stores events of, with the batch when there is one (task-event-relay.ts
   * passes the ids on to the others; TaskEventLog keeps the batches).
   */
  onStored(fn: (taskId: string, batch?: StoredEventBatch) => void) {
    this.on(STORED, fn);
  }
  /** Another process stored events of the task: its streams here read them from the database. */
  wake(taskId: string) {
    this.emit(taskId, undefined);
    this.emit(WOKEN, taskId);
  }
  /** Told the id of every task another process stored events of. */
  onWoken(fn: (taskId: string) => void) {
    this.on(WOKEN, fn);
  }
  /** The tasks whose streams are open in this process. */
  listened(): string[] {
    return this.eventNames().filter((n): n is string => typeof n === 'string');
  }
  /** The process is stopping: open event streams send what is stored and end (EventSource reconnects). */
  shutdown() {
    this.closing = true;
    this.emit(SHUTDOWN);
  }
  onShutdown(fn: () => void) {
    this.on(SHUTDOWN, fn);
    return () => this.off(SHUTDOWN, fn);
  }
}

/** The task was failed or finished by someone else (e.g. judged stale): stop writing. */
export class TaskLostError extends Error {}

const FLUSH_MS = 150;
const FLUSH_CHARS = 2000;

/**
 * Buffers a running task's stream and writes it to `writing_task_events` (consecutive deltas merged) together
 * with the task's text so far and heartbeat, every ~150 ms or 2000 characters, through the process's TaskWriter (which
 * stores the writes of every running task together).
 */
export class TaskSink implements Sink {
  text = '';
  titleText = '';
  private pending: Array<{ type: string; data: Record<string, unknown> }> = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Flushes waiting behind an earlier one, not yet handed to the writer. */
  private unsubmitted = 0;
  private failure: unknown = null;
  private lastFlushAt = 0;
  /** Whether the first text (or reasoning) has been handed to flush: it is written at once, not with the next batch. */
  private textStarted = false;
  private readonly abort = new AbortController();
  /** The task's last event id as of this run's last stored write (null before the first): what its final events follow. */
  lastEventId: number | null = null;

  constructor(
    private readonly writer: TaskWriter,
    readonly taskId: string,
    /** The claim's run number: writes are fenced to it (see WritingRepo.updateRunning). */
    readonly run?: number,
  ) {}

  get signal() {
    return this.abort.signal;
  }

  /** Stops the run's model calls with `reason` (what was streamed stays buffered and can still be flushed). */
  stop(reason: unknown) {
    this.abort.abort(reason);
  }

  private push(type: string, data: Record<string, unknown>, chars = 0) {
    if (this.failure) throw this.failure;
    const last = this.pending.at(-1);
    if ((type === 'delta' || type === 'reasoning') && last?.type === type) last.data.text = `${last.data.text as string}${data.text as string}`;
    else this.pending.push({ type, data });
    this.pendingChars += chars;
    // The first text is what the user waits for: it is written at once even when the last write (the progress event
    // before the model call) was moments ago. Leading edge otherwise: the first event after a quiet spell goes out at
    // once; later ones are batched.
    const firstText = !this.textStarted && (type === 'delta' || type === 'reasoning');
    if (firstText) this.textStarted = true;
    if (firstText || this.pendingChars >= FLUSH_CHARS) void this.flush(firstText).catch(() => undefined);
    else this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), Math.max(0, this.lastFlushAt + FLUSH_MS - Date.now()));
  }

  progress(stage: string, message: string, percent: number) {
    this.push('progress', { stage, message, percent });
  }
  reasoning(text: string) {
    this.push('reasoning', { text }, text.length);
  }
  delta(text: string) {
    this.text += text;
    this.push('delta', { text }, text.length);
  }
  reset(reason: string) {
    this.text = '';
    // The text starts again (a restarted run, a retried model call): its first piece is again the one to hurry.
    this.textStarted = false;
    this.push('reset', { reason });
  }
  title(title: string) {
    this.titleText = title;
    this.push('title', { title });
  }
  sources(items: SearchSource[]) {
    this.push('sources', { items });
  }
  usage(u: LlmUsage) {
    this.push('usage', { ...u });
  }

  /**
   * Writes what is buffered; serialised so events keep their order. `urgent` (the first text) goes out at once, other
   * writes are gathered with other tasks' for a moment (TaskWriter). Throws TaskLostError when the task is no longer ours.
   */
  flush(urgent = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastFlushAt = Date.now();
    const batch = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    const write = { taskId: this.taskId, run: this.run, text: this.text, title: this.titleText, events: batch, stored: (id: number) => (this.lastEventId = id) };
    // Urgent (the first text): when every earlier write of this task is already with the writer (the progress event
    // before the model call, gathering), this one joins it now: the writer keeps a task's writes in the order handed
    // over, and both go in one statement instead of the text waiting out the gathering and a statement of its own.
    const submitted = urgent && this.unsubmitted === 0 && !this.failure ? this.writer.write(write, true) : null;
    const beforeText = !this.textStarted;
    // Awaited below, in turn; a failure before then is not an unhandled rejection.
    submitted?.catch(() => undefined);
    if (urgent && !submitted) this.writer.hurry();
    if (!submitted) this.unsubmitted += 1;
    this.flushing = this.flushing.then(async () => {
      if (!submitted) this.unsubmitted -= 1;
      if (this.failure) return;
      try {
        const mine = await (submitted ?? this.writer.write(write, urgent, beforeText));
        if (!mine) throw new TaskLostError(`task ${this.taskId} is no longer running here`);
      } catch (err) {
        this.failure = err;
        this.abort.abort();
      }
    });
    return this.flushing.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  /** Stops the timer and returns the events not yet written (written by the caller with the final state). */
  drain(): Array<{ type: string; data: Record<string, unknown> }> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  async settled(): Promise<void> {
    await this.flushing;
  }
}
