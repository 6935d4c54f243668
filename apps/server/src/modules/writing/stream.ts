import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TaskSignals } from './task-sink.js';
import type { WritingRepo } from './writing.repo.js';

const KEEP_ALIVE_MS = 15_000;
const PAGE = 500;
const TERMINAL = new Set(['done', 'error']);

/**
 * Serves one task's stored events as SSE: everything after `lastEventId`, then new ones as they are written.
 * Wakes on the in-process signal, and re-reads every `pollMs` anyway so a stream served by one instance
 * follows a task run by another. Ends after `done` or `error`, or when the client goes away.
 */
export async function streamTask(o: {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  taskId: string;
  lastEventId: number;
  repo: WritingRepo;
  signals: TaskSignals;
  pollMs: number;
}): Promise<void> {
  const { res, taskId, repo, signals } = o;
  let last = o.lastEventId;
  let closed = false;
  // Shutdown: one more read for what the checkpoint wrote, then end.
  let ending = signals.closing;
  let dirty: boolean;
  let wake: (() => void) | null = null;
  const onSignal = () => {
    dirty = true;
    wake?.();
  };
  const onClose = () => {
    closed = true;
    wake?.();
  };
  res.on('close', onClose);
  signals.on(taskId, onSignal);
  const offShutdown = signals.onShutdown(() => {
    ending = true;
    dirty = true;
    wake?.();
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
      dirty = false;
      const lastRead = ending;
      const events = await repo.eventsAfter(taskId, last, PAGE);
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
      if (events.length === PAGE || dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, o.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } catch {
    // A database hiccup: end the response; EventSource reconnects with Last-Event-ID and resumes.
  } finally {
    clearInterval(keepAlive);
    signals.off(taskId, onSignal);
    offShutdown();
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}
