import { LRUCache } from 'lru-cache';
import type { InvalidationBus } from './bus.js';

/** Message meaning "drop every entry". */
export const ALL = '*';

/**
 * An in-process cache whose entries are dropped by messages on an invalidation bus (so a write in any process reaches
 * every process's copy), with a TTL as the bound for writes the bus never heard of.
 *
 * A load that was under way while an invalidation arrived is returned but not stored: it may have read the database
 * before the write committed, and storing it would keep the old value until the TTL ends.
 */
export class InvalidatingCache<K extends string | number, V extends NonNullable<unknown>> {
  private readonly lru: LRUCache<K, V>;
  /** Bumped by every invalidation; a load stores its value only when this did not move meanwhile. */
  private epoch = 0;

  constructor(
    private readonly bus: InvalidationBus,
    private readonly topic: string,
    opts: { max: number; ttlMs: number; parse: (message: string) => K },
  ) {
    this.lru = new LRUCache<K, V>({ max: opts.max, ttl: opts.ttlMs });
    bus.subscribe(topic, (message) => {
      this.epoch += 1;
      if (message === ALL) this.lru.clear();
      else this.lru.delete(opts.parse(message));
    });
    bus.onReset(() => {
      this.epoch += 1;
      this.lru.clear();
    });
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const value = await load();
    if (epoch === this.epoch) this.lru.set(key, value);
    return value;
  }

  /** Drops `key` here and in every other process. Call after the write committed. */
  invalidate(key: K): void {
    this.bus.publish(this.topic, String(key));
  }

  /** Drops everything here and in every other process. */
  invalidateAll(): void {
    this.bus.publish(this.topic, ALL);
  }

  /** Drops everything in this process only (what changed is time, which every process sees by itself). */
  invalidateAllLocal(): void {
    this.epoch += 1;
    this.lru.clear();
  }

  /** Whether an entry is held (tests). */
  has(key: K): boolean {
    return this.lru.has(key);
  }
}
