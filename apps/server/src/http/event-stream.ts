import type { ServerResponse } from 'node:http';

const KEEP_ALIVE_MS = 15_000;
const PAGE = 500;
const TERMINAL = new Set(['done', 'error']);

export interface StoredEvent {
  id: number;
  type: string;
  data: unknown;
}

/** Events just stored for one subject, numbered; `after` is the subject's last event id before them. */
export interface StoredEventBatch {
  after: number;
  events: StoredEvent[];
}

/**
 * Wakes a stream when its subject writes events in this process. A signal may carry the batch it stored: a stream that
 * has sent exactly up to `batch.after` sends it from memory; any other signal makes the stream read the database.
 */
export interface EventSignals {
  on(id: string, listener: (batch?: StoredEventBatch) => void): void;
  off(id: string, listener: (batch?: StoredEventBatch) => void): void;
}

/** Server shutdown, for streams that should read once more and end instead of being cut. */
export interface StreamShutdown {
  readonly closing: boolean;
  onShutdown(listener: () => void): () => void;
}

/** Where a stream resumes: the browser's Last-Event-ID header (digits only), else the `lastEventId` query, else 0. */
export function resumeAfter(header: string | string[] | undefined, query: number | undefined): number {
  return typeof header === 'string' && /^\d{1,18}$/.test(header) ? Number(header) : (query ?? 0);
}

/**
 * Where a stream's next events come from: batches handed over by signals that continue, without a gap, what it has
 * taken to send; otherwise (first read, a gap, a signal without a batch, a poll, shutdown) a read of the database.
 */
class EventFeed {
  /** A read is due rather than the pending batches. */
  dirty = true;
  private pending: StoredEvent[] = [];
  private seen: number;
  /** Signals that came during a read (its result may or may not hold them), sorted out when it returns; null between reads. */
  private duringRead: Array<StoredEventBatch | undefined> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly read: (after: number, limit: number) => Promise<StoredEvent[]>,
    after: number,
  ) {
    this.seen = after;
  }

  readonly onSignal = (batch?: StoredEventBatch) => {
    if (this.duringRead) this.duringRead.push(batch);
    else if (batch && !this.dirty && batch.after === (this.pending.at(-1)?.id ?? this.seen)) this.pending.push(...batch.events);
    else this.dirty = true;
    this.wake?.();
  };

  /**
   * Reads, holding the signals that come meanwhile. A batch stored before the read's snapshot is in its result already;
   * one stored after continues it: either way its events past the result's last are what follows, sent from memory. Only
   * a batch that leaves a gap, or a signal without one, makes another read due. Under load (a stream opened while its
   * task's first text was being stored) this saves each such stream a second query before its first text.
   */
  private async readHolding(after: number, read: () => Promise<StoredEvent[]>): Promise<StoredEvent[]> {
    this.duringRead = [];
    let events: StoredEvent[];
    try {
      events = await read();
    } catch (err) {
      this.duringRead = null;
      throw err;
    }
    const held = this.duringRead;
    this.duringRead = null;
    this.pending = [];
    // A full page: more may be stored.
    if (events.length === PAGE) this.dirty = true;
    for (const batch of held) {
      const tail = this.pending.at(-1)?.id ?? events.at(-1)?.id ?? after;
      if (!batch || batch.after > tail) this.dirty = true;
      else if (!this.dirty) this.pending.push(...batch.events.filter((e) => e.id > tail));
    }
    return events;
  }

  /**
   * The first page, read by the caller after this feed was listening (with the check that the subject is the user's, in
   * one query): it is sent as is, followed by what was signalled meanwhile, unless that left a gap or the page is full.
   */
  async first(read: () => Promise<StoredEvent[]>): Promise<void> {
    this.dirty = false;
    const page = await this.readHolding(this.seen, read);
    this.pending = [...page, ...this.pending];
  }

  /** Ends a wait: the client left (nothing to read), or the server is closing (read once more). */
  interrupt(readAgain: boolean) {
    if (readAgain) this.dirty = true;
    this.wake?.();
  }

  get ready(): boolean {
    return this.dirty || this.pending.length > 0;
  }

  async next(last: number): Promise<StoredEvent[]> {
    let events: StoredEvent[];
    if (!this.dirty) {
      events = this.pending;
      this.pending = [];
    } else {
      this.dirty = false;
      // What was pending is in the read's result too (it starts after the last event sent).
      this.pending = [];
      events = await this.readHolding(last, () => this.read(last, PAGE));
    }
    this.seen = this.pending.at(-1)?.id ?? events.at(-1)?.id ?? this.seen;
    return events;
  }

  /** Until a signal or `ms`; after `ms` a read is due, since what another process wrote is only in the database. */
  async wait(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.dirty = true;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }
}

/** A feed listening to its subject's signals; `close` stops listening. */
export interface OpenedFeed {
  feed: EventFeed;
  close(): void;
}

function listen(o: { id: string; lastEventId: number; read(after: number, limit: number): Promise<StoredEvent[]>; signals: EventSignals }): OpenedFeed {
  const feed = new EventFeed(o.read, o.lastEventId);
  o.signals.on(o.id, feed.onSignal);
  return { feed, close: () => o.signals.off(o.id, feed.onSignal) };
}

/**
 * Starts listening to the subject's signals, then reads its first page with `first`, which may refuse (a subject that is
 * not the user's): then it throws before anything was sent and nothing is left listening. Listening first means a write
 * signalled during that read is not missed. A stream opened so costs one query before its first bytes instead of two (a
 * check of the subject, then the read).
 */
export async function openEventFeed(o: {
  id: string;
  lastEventId: number;
  read(after: number, limit: number): Promise<StoredEvent[]>;
  signals: EventSignals;
  first(after: number, limit: number): Promise<StoredEvent[]>;
}): Promise<OpenedFeed> {
  const opened = listen(o);
  try {
    await opened.feed.first(() => o.first(o.lastEventId, PAGE));
  } catch (err) {
    opened.close();
    throw err;
  }
  return opened;
}

/**
 * Serves one subject's stored events (a writing task, an agent turn) as SSE: everything after `lastEventId`, then new
 * ones as they are written. Wakes on the in-process signal (sending a batch it carries from memory when it continues
 * what was sent) and re-reads every `pollMs` anyway, so a stream served by one instance follows work run by another.
 * Ends after `done` or `error`, when the client goes away, or (with `shutdown`) after one more read once the server is
 * closing.
 */
export async function streamStoredEvents(o: {
  res: ServerResponse;
  requestId: string;
  id: string;
  lastEventId: number;
  read(after: number, limit: number): Promise<StoredEvent[]>;
  signals: EventSignals;
  shutdown?: StreamShutdown;
  pollMs: number;
  /** Already listening, with its first page read (openEventFeed); else opened here and read in the loop. */
  opened?: OpenedFeed;
}): Promise<void> {
  const { res } = o;
  let last = o.lastEventId;
  let closed = false;
  let ending = o.shutdown?.closing ?? false;
  const opened = o.opened ?? listen(o);
  const { feed } = opened;
  const onClose = () => {
    closed = true;
    feed.interrupt(false);
  };
  res.on('close', onClose);
  const offShutdown = o.shutdown?.onShutdown(() => {
    ending = true;
    feed.interrupt(true);
  });

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': o.requestId,
  });
  const write = (s: string) =>
    new Promise<void>((resolve) => {
      if (closed || res.writableEnded) return resolve();
      if (res.write(s)) resolve();
      else res.once('drain', resolve).once('close', resolve);
    });
  await write('retry: 2000\n\n');
  const keepAlive = setInterval(() => void write(': keep-alive\n\n'), KEEP_ALIVE_MS);

  try {
    while (!closed) {
      const lastRead = ending;
      const events = await feed.next(last);
      let ended = false;
      for (const e of events) {
        await write(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
        last = e.id;
        if (TERMINAL.has(e.type)) {
          ended = true;
          break;
        }
      }
      if (ended || closed || lastRead) break;
      if (!feed.ready) await feed.wait(o.pollMs);
    }
  } catch {
    // A database hiccup: end the response; the client reconnects with Last-Event-ID and resumes.
  } finally {
    clearInterval(keepAlive);
    opened.close();
    offShutdown?.();
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}
