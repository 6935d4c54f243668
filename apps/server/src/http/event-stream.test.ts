import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventFeed, streamStoredEvents, type StoredEvent, type StoredEventBatch } from './event-stream.js';

/** One subject's stored events, a count of reads, and a server streaming them as SSE through streamStoredEvents. */
async function harness(initial: StoredEvent[]) {
  const stored = [...initial];
  const signals = new EventEmitter();
  let reads = 0;
  const server = http.createServer((_req, res) => {
    void streamStoredEvents({
      res,
      requestId: 'r1',
      id: 'task-1',
      lastEventId: 0,
      read: async (after, limit) => {
        reads += 1;
        return stored.filter((e) => e.id > after).slice(0, limit);
      },
      signals,
      pollMs: 60_000,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  /** Reads the stream until it has sent the event with this id. */
  const until = async (id: number) => {
    while (!text.includes(`id: ${id}\n`)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before event ${id}`);
      text += decoder.decode(value, { stream: true });
    }
  };
  const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  const signal = (batch?: StoredEventBatch) => signals.emit('task-1', batch);
  const store = (...events: StoredEvent[]) => stored.push(...events);
  return {
    until,
    ids,
    signal,
    store,
    reads: () => reads,
    close: async () => {
      await reader.cancel();
      await new Promise((r) => server.close(r));
    },
  };
}

const delta = (id: number): StoredEvent => ({ id, type: 'delta', data: { text: `第${id}段` } });

describe('streamStoredEvents', () => {
  let h: Awaited<ReturnType<typeof harness>> | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends a batch that continues what it sent from memory, without reading it back', async () => {
    h = await harness([delta(1), delta(4)]);
    await h.until(4);
    expect(h.reads()).toBe(1);
    // Ids have gaps (other tasks' events): `after` says what comes right before.
    h.store(delta(9), delta(12));
    h.signal({ after: 4, events: [delta(9), delta(12)] });
    await h.until(12);
    h.store(delta(13));
    h.signal({ after: 12, events: [delta(13)] });
    await h.until(13);
    expect(h.reads()).toBe(1);
    expect(h.ids()).toEqual([1, 4, 9, 12, 13]);
  });

  it('reads the database when a batch does not continue what it sent, or a signal carries none', async () => {
    h = await harness([delta(1)]);
    await h.until(1);
    // Event 5 was stored by another writer and never signalled: the batch after it cannot go out first.
    h.store(delta(5), delta(7));
    h.signal({ after: 5, events: [delta(7)] });
    await h.until(7);
    expect(h.reads()).toBe(2);
    h.store(delta(8));
    h.signal();
    await h.until(8);
    expect(h.reads()).toBe(3);
    expect(h.ids()).toEqual([1, 5, 7, 8]);
  });

  it('ends after a terminal event sent from memory', async () => {
    h = await harness([delta(1)]);
    await h.until(1);
    const done: StoredEvent = { id: 2, type: 'done', data: { taskId: 'task-1' } };
    h.store(done);
    h.signal({ after: 1, events: [done] });
    await h.until(2);
    expect(h.ids()).toEqual([1, 2]);
    expect(h.reads()).toBe(1);
  });
});

describe('openEventFeed', () => {
  const stream = async (opened: Awaited<ReturnType<typeof openEventFeed>>, signals: EventEmitter, read: (after: number, limit: number) => Promise<StoredEvent[]>) => {
    const server = http.createServer((_req, res) => {
      void streamStoredEvents({ res, requestId: 'r1', id: 'task-1', lastEventId: 0, read, signals, pollMs: 60_000, opened });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const reader = res.body!.getReader();
    let text = '';
    const until = async (id: number) => {
      while (!text.includes(`id: ${id}\n`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before event ${id}`);
        text += new TextDecoder().decode(value);
      }
      return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    };
    return { until, close: async () => (await reader.cancel(), await new Promise((r) => server.close(r))) };
  };

  it('sends the first page it was opened with (one read in all), then batches from memory', async () => {
    const signals = new EventEmitter();
    let reads = 0;
    const read = async () => {
      reads += 1;
      return [];
    };
    const opened = await openEventFeed({ id: 'task-1', lastEventId: 0, read, signals, first: async () => [delta(1), delta(3)] });
    const s = await stream(opened, signals, read);
    try {
      expect(await s.until(3)).toEqual([1, 3]);
      signals.emit('task-1', { after: 3, events: [delta(6)] });
      expect(await s.until(6)).toEqual([1, 3, 6]);
      expect(reads).toBe(0);
    } finally {
      await s.close();
    }
    // The client went away: the stream stops listening.
    for (let i = 0; i < 100 && signals.listenerCount('task-1'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(signals.listenerCount('task-1')).toBe(0);
  });

  it('a refusal by the first read throws before anything is sent and leaves nothing listening', async () => {
    const signals = new EventEmitter();
    const refused = new Error('任务不存在');
    await expect(openEventFeed({ id: 'task-1', lastEventId: 0, read: async () => [], signals, first: async () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(signals.listenerCount('task-1')).toBe(0);
  });

  /** A stream opened with a first read during which `during` happens (stored and signalled meanwhile). */
  const openedWith = async (stored: StoredEvent[], during: (signals: EventEmitter) => void) => {
    const signals = new EventEmitter();
    let reads = 0;
    const read = async (after: number) => {
      reads += 1;
      return stored.filter((e) => e.id > after);
    };
    const opened = await openEventFeed({
      id: 'task-1',
      lastEventId: 0,
      read,
      signals,
      first: async () => {
        const page = [...stored];
        during(signals);
        return page;
      },
    });
    return { s: await stream(opened, signals, read), reads: () => reads };
  };

  it('a write signalled while the first page was being read is sent after it, from memory', async () => {
    const stored = [delta(1)];
    const { s, reads } = await openedWith(stored, (signals) => {
      // Stored and signalled after this read's snapshot, before it returned.
      stored.push(delta(2));
      signals.emit('task-1', { after: 1, events: [delta(2)] });
    });
    try {
      expect(await s.until(2)).toEqual([1, 2]);
      expect(reads()).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a write signalled during the first read that the page already holds is not sent twice', async () => {
    const stored = [delta(1), delta(2)];
    const { s, reads } = await openedWith(stored, (signals) => {
      // Stored before the read's snapshot, its signal delivered while the read was still under way.
      signals.emit('task-1', { after: 1, events: [delta(2)] });
      stored.push(delta(3));
      signals.emit('task-1', { after: 2, events: [delta(3)] });
    });
    try {
      expect(await s.until(3)).toEqual([1, 2, 3]);
      expect(reads()).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a signal without its events during the first read, or one that leaves a gap, is followed by a read', async () => {
    const stored = [delta(1)];
    const { s, reads } = await openedWith(stored, (signals) => {
      stored.push(delta(2), delta(4));
      signals.emit('task-1');
      signals.emit('task-1', { after: 3, events: [delta(4)] });
    });
    try {
      expect(await s.until(4)).toEqual([1, 2, 4]);
      expect(reads()).toBe(1);
    } finally {
      await s.close();
    }
  });
});
