import { randomUUID } from 'node:crypto';
import type { InvalidationBus } from '../../cache/bus.js';
import type { TaskSignals } from './task-sink.js';

const TOPIC = 'writing-task-events';

/**
 * Several processes (Redis): wakes the event streams of the other processes when this one stores events of a task, so a
 * stream that web process B holds for a task worker C runs is told at once over the cache bus instead of finding out by
 * re-reading the database every WRITING_STREAM_POLL_MS. The ids of the tasks stored within one turn of the event loop go
 * in one message (a group-committed write stores many). The others read the new events from the database. Pub/sub does
 * not queue: when the subscription comes back after a break, every stream here reads again, and each stream's slow poll
 * stays as the last safety net.
 */
export function relayTaskEvents(signals: TaskSignals, bus: InvalidationBus): void {
  const origin = randomUUID();
  let pending: Set<string> | null = null;
  signals.onStored((taskId) => {
    if (!pending) {
      const ids = (pending = new Set());
      setImmediate(() => {
        pending = null;
        bus.publish(TOPIC, `${origin} ${[...ids].join(',')}`);
      });
    }
    pending.add(taskId);
  });
  bus.subscribe(TOPIC, (message) => {
    const [from, ids] = message.split(' ');
    // This process's own streams were told when it stored the events (with the events themselves).
    if (from === origin || !ids) return;
    for (const id of ids.split(',')) signals.wake(id);
  });
  bus.onReset(() => {
    for (const id of signals.listened()) signals.wake(id);
  });
}
