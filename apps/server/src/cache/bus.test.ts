import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { InProcessBus, RedisBus, type InvalidationBus } from './bus.js';
import { InvalidatingCache } from './invalidating-cache.js';
import { describeNeeding } from '../test/database.js';

const log = { warn: () => undefined };
const until = async (cond: () => boolean, ms = 1000) => {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
  return Date.now() - start;
};

describe('in-process invalidation bus', () => {
  it('runs the handlers of the topic at once, and only those', () => {
    const bus = new InProcessBus();
    const seen: string[] = [];
    bus.subscribe('a', (m) => seen.push(`a:${m}`));
    bus.subscribe('b', (m) => seen.push(`b:${m}`));
    bus.publish('a', '1');
    expect(seen).toEqual(['a:1']);
  });

  it('a cache drops the key, or everything, and does not store a load that raced an invalidation', async () => {
    const bus = new InProcessBus();
    const cache = new InvalidatingCache<number, string>(bus, 't', { max: 10, ttlMs: 60_000, parse: Number });
    let loads = 0;
    const load = (v: string) => async () => {
      loads += 1;
      return v;
    };
    expect(await cache.get(1, load('one'))).toBe('one');
    expect(await cache.get(1, load('changed'))).toBe('one');
    expect(loads).toBe(1);
    cache.invalidate(1);
    expect(await cache.get(1, load('two'))).toBe('two');
    await cache.get(2, load('x'));
    cache.invalidateAll();
    expect(cache.has(1) || cache.has(2)).toBe(false);

    // A load that read the old value before a write committed and was invalidated meanwhile is not kept.
    let release!: () => void;
    const slow = cache.get(3, async () => {
      await new Promise<void>((r) => (release = r));
      return 'stale';
    });
    await new Promise((r) => setImmediate(r));
    cache.invalidate(3);
    release();
    expect(await slow).toBe('stale');
    expect(cache.has(3)).toBe(false);
    expect(await cache.get(3, load('fresh'))).toBe('fresh');
  });
});

describeNeeding(['TEST_REDIS_URL'], 'Redis invalidation bus', (url) => {
  const opened: { bus: InvalidationBus; redis: Redis }[] = [];
  const open = async (prefix: string) => {
    const redis = new Redis(url);
    const bus = new RedisBus(redis, prefix, log);
    opened.push({ bus, redis });
    await bus.ready();
    return bus;
  };
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.bus.close();
      o.redis.disconnect();
    }
  });

  it('a message published in one process reaches the other within milliseconds, and runs once in the sender', async () => {
    const prefix = `t-${randomBytes(4).toString('hex')}`;
    const a = await open(prefix);
    const b = await open(prefix);
    const other = await open(`${prefix}-other`);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const seenOther: string[] = [];
    a.subscribe('session', (m) => seenA.push(m));
    b.subscribe('session', (m) => seenB.push(m));
    other.subscribe('session', (m) => seenOther.push(m));
    a.publish('session', 's:42');
    expect(seenA).toEqual(['s:42']);
    const ms = await until(() => seenB.length > 0);
    expect(seenB).toEqual(['s:42']);
    expect(ms).toBeLessThan(100);
    await new Promise((r) => setTimeout(r, 50));
    // The sender ran its handlers itself and ignores its own echo; another prefix (another deployment) hears nothing.
    expect(seenA).toEqual(['s:42']);
    expect(seenOther).toEqual([]);
  });

  it("a cache in one process drops the entry another process's write invalidated", async () => {
    const prefix = `t-${randomBytes(4).toString('hex')}`;
    const a = await open(prefix);
    const b = await open(prefix);
    const cacheA = new InvalidatingCache<number, number>(a, 'n', { max: 10, ttlMs: 60_000, parse: Number });
    const cacheB = new InvalidatingCache<number, number>(b, 'n', { max: 10, ttlMs: 60_000, parse: Number });
    let stored = 1;
    expect(await cacheB.get(7, async () => stored)).toBe(1);
    stored = 2;
    cacheA.invalidate(7);
    await until(() => !cacheB.has(7));
    expect(await cacheB.get(7, async () => stored)).toBe(2);
  });

  it('drops everything when the subscription comes back after a drop (messages may have been missed)', async () => {
    const prefix = `t-${randomBytes(4).toString('hex')}`;
    const b = (await open(prefix)) as RedisBus;
    const cache = new InvalidatingCache<number, number>(b, 'n', { max: 10, ttlMs: 60_000, parse: Number });
    await cache.get(1, async () => 1);
    expect(cache.has(1)).toBe(true);
    // The subscriber connection drops and ioredis reconnects it.
    (b as unknown as { subscriber: Redis }).subscriber.disconnect(true);
    await until(() => !cache.has(1), 5000);
  });
});
