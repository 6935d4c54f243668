import { useEffect, useRef, useState } from 'react';
import { taskEventTypes } from '@inkstone/shared';
import { writingApi } from '../../api/writing';
import { clearSnapshot, initialTaskState, isTerminal, loadSnapshot, reduceTaskEvent, saveSnapshot, streamUrl, type TaskStreamState } from './task-stream';
import { settle } from '../../api/request';

const PERSIST_EVERY_MS = 250;

/**
 * Follows one task's SSE stream. With `persist`, the state is kept in sessionStorage (throttled, and on
 * pagehide) so a reload continues from the saved lastEventId instead of replaying the whole stream.
 */
export function useTaskStream(taskId: string | null, opts: { persist?: boolean } = {}): TaskStreamState | null {
  const persist = opts.persist === true;
  const [state, setState] = useState<TaskStreamState | null>(null);
  const ref = useRef<TaskStreamState | null>(null);

  useEffect(() => {
    if (!taskId) {
      ref.current = null;
      setState(null);
      return;
    }
    let current = (persist && loadSnapshot(taskId)) || initialTaskState(taskId);
    // A lost connection (code 0) is the browser's, not the task's: the task may still be running.
    const resumable = current.status === 'connecting' || current.status === 'streaming' || (current.status === 'error' && current.error?.code === 0);
    if (resumable) current = { ...current, status: 'connecting', error: null };
    ref.current = current;
    setState(current);
    if (isTerminal(current)) return;

    let lastSaved = 0;
    let saveTimer: number | undefined;
    const persistNow = () => {
      window.clearTimeout(saveTimer);
      saveTimer = undefined;
      lastSaved = Date.now();
      if (ref.current) saveSnapshot(ref.current);
    };
    const schedulePersist = () => {
      if (!persist || saveTimer !== undefined) return;
      saveTimer = window.setTimeout(persistNow, Math.max(0, PERSIST_EVERY_MS - (Date.now() - lastSaved)));
    };

    let es: EventSource | null = null;
    let stopped = false;
    let leaving = false;
    /** Refusals in a row; a stream that opens resets it. */
    let refusals = 0;
    const lose = () => {
      if (!ref.current || isTerminal(ref.current)) return;
      const next: TaskStreamState = { ...ref.current, status: 'error', error: { code: 0, msg: '连接已断开，请刷新页面重试', refunded: false } };
      ref.current = next;
      setState(next);
    };
    const onEvent = (type: (typeof taskEventTypes)[number]) => (ev: MessageEvent<string>) => {
      // The task's own `error` event carries data; the connection's error event (same name) carries none.
      if (typeof ev.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(ev.data);
      } catch {
        data = null;
      }
      const prev = ref.current!;
      const next = reduceTaskEvent(prev, { id: Number(ev.lastEventId) || 0, type, data });
      if (next === prev) return;
      ref.current = next;
      setState(next);
      if (isTerminal(next)) {
        es?.close();
        if (persist) persistNow();
      } else schedulePersist();
    };
    // Each (re)connection asks for a fresh one-minute ticket: EventSource cannot send the session header, and the
    // session token must not sit in a URL. The browser's own quick retries reuse the URL while its ticket lives.
    const connect = async () => {
      let ticket: string;
      try {
        ticket = (await writingApi.streamTicket(taskId)).ticket;
      } catch {
        // Logged out, or the task is not ours: the request layer has said so; the stream cannot continue.
        if (!stopped) lose();
        return;
      }
      if (stopped || !ref.current || isTerminal(ref.current)) return;
      const source = new EventSource(streamUrl(taskId, ticket, ref.current.lastEventId));
      es = source;
      for (const t of taskEventTypes) source.addEventListener(t, onEvent(t) as EventListener);
      source.onopen = () => {
        refusals = 0;
      };
      source.onerror = () => {
        // The browser closes the stream while the page unloads; that is not a failure to remember.
        if (leaving || stopped) return;
        // CLOSED means the server refused the stream (most often: the ticket expired during a long outage); otherwise
        // the browser retries by itself. A refusal is retried with a new ticket, but not forever.
        if (source.readyState === EventSource.CLOSED && ref.current && !isTerminal(ref.current)) {
          refusals += 1;
          if (refusals <= 2) settle(connect());
          else lose();
        }
      };
    };
    settle(connect());
    const onHide = () => {
      leaving = true;
      if (persist) persistNow();
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      stopped = true;
      es?.close();
      window.removeEventListener('pagehide', onHide);
      if (persist && saveTimer !== undefined) persistNow();
      window.clearTimeout(saveTimer);
    };
  }, [taskId, persist]);

  return state;
}

export { clearSnapshot };
