import { useEffect, useRef } from 'react';
import { settle } from '../../api/request';

/** What a tick answers: `false` stops the poll (a final state was reached); anything else keeps it going. */
export type PollTick = (signal: AbortSignal) => Promise<boolean | void> | boolean | void;

export interface PollOptions {
  /** Polls only while true (logged in, a QR on screen, ...). */
  enabled: boolean;
  /** Run the first tick at once instead of one interval later. */
  immediate?: boolean;
  /** A new value restarts the poll (a new QR, a new order): the old one's request is aborted. */
  restartOn?: unknown;
}

/**
 * The app's one way of fetching on a timer (the 15 s notice/account poll, QR scan states, payment status).
 * One tick at a time: the next starts `everyMs` after the previous one started, or as soon as it settles if it
 * took longer, so a slow reply never piles requests up. A tick that throws is simply retried by the next one.
 * Stopping (unmount, `enabled` false, `restartOn` changing) aborts the signal given to the tick, so a reply
 * arriving after that can be ignored (`signal.aborted`) and an in-flight request can be cancelled.
 *
 * Cached lists that refresh on a timer use react-query's `refetchInterval` with `pollWhile` instead.
 */
export function usePoll(tick: PollTick, everyMs: number, { enabled, immediate = false, restartOn }: PollOptions): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });

  useEffect(() => {
    if (!enabled) return;
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const started = Date.now();
      let go: boolean | void = true;
      try {
        go = await latest.current(ctrl.signal);
      } catch {
        // A missed tick (network blip) is retried by the next one.
      }
      if (ctrl.signal.aborted || go === false) return;
      timer = setTimeout(() => settle(run()), Math.max(0, started + everyMs - Date.now()));
    };
    if (immediate) settle(run());
    else timer = setTimeout(() => settle(run()), everyMs);
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [enabled, everyMs, immediate, restartOn]);
}

/**
 * react-query's `refetchInterval` for a reply that is refetched while something in it is still moving (a publish
 * job running, a document parsing): every `everyMs` while `moving(data)` (data is undefined before the first
 * answer), not at all once it settles.
 */
export function pollWhile<T>(moving: (data: T | undefined) => boolean, everyMs: number) {
  return (query: { state: { data: T | undefined } }): number | false => (moving(query.state.data) ? everyMs : false);
}
