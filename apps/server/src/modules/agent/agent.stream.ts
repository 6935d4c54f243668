import type { ServerResponse } from 'node:http';
import type { AgentRepo } from './agent.repo.js';
import type { TurnSignals } from './agent.service.js';

const KEEP_ALIVE_MS = 15_000;
const PAGE = 500;
const TERMINAL = new Set(['done', 'error']);

/**
 * Serves one turn's stored events as SSE: everything after `lastEventId`, then new ones as they are written (woken by
 * the in-process signal, re-read every `pollMs` for turns another process runs). Ends after `done` or `error`.
 */
export async function streamTurn(o: { res: ServerResponse; requestId: string; turnId: string; lastEventId: number; repo: AgentRepo; signals: TurnSignals; pollMs: number }) {
  const { res, turnId, repo, signals } = o;
  let last = o.lastEventId;
  let closed = false;
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
  signals.on(turnId, onSignal);
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
      const events = await repo.eventsAfter(turnId, last, PAGE);
      let ended = false;
      for (const e of events) {
        await write(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
        last = e.id;
        if (TERMINAL.has(e.type)) {
          ended = true;
          break;
        }
      }
      if (ended || closed) break;
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
    // A database hiccup: end the response; the client reconnects with Last-Event-ID and resumes.
  } finally {
    clearInterval(keepAlive);
    signals.off(turnId, onSignal);
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}
