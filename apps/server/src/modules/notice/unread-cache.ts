import type { InvalidationBus } from '../../cache/bus.js';
import { InvalidatingCache } from '../../cache/invalidating-cache.js';

/**
 * The bubble's unread counts, per user, held in process: every online user polls the bubble every 15 s, and the count
 * changes only when a notice reaches the user (a broadcast, a personal notice), the user reads one, or a notice
 * published ahead of time comes due. The writes invalidate over the bus (every process); a notice coming due is
 * noticed here (`dueAt`). The TTL only bounds writes made behind the service's back (SQL by hand).
 */
export class UnreadCounts {
  readonly counts: InvalidatingCache<number, number>;
  /** Earliest publish time still in the future among all notices (null: none); undefined: not known yet. */
  private due: { at: number | null; epoch: number } | undefined;
  private dueLoad: Promise<unknown> | undefined;
  private epoch = 0;

  constructor(bus: InvalidationBus, maxEntries: number) {
    this.counts = new InvalidatingCache(bus, 'notice-unread', { max: maxEntries, ttlMs: 10 * 60_000, parse: Number });
    // A broadcast (or a notice published ahead of time) can move the next due time: learn it again.
    bus.subscribe('notice-unread', (m) => {
      if (m === '*') this.forgetDue();
    });
    bus.onReset(() => this.forgetDue());
  }

  private forgetDue() {
    this.epoch += 1;
    this.due = undefined;
  }

  /**
   * The user's count, from the cache while no notice has come due since it was stored. `nextDue` reads the earliest
   * future publish time (one query, only after a broadcast or once a due time passed).
   */
  async get(userId: number, now: Date, load: () => Promise<number>, nextDue: (now: Date) => Promise<Date | null>): Promise<number> {
    if (this.due === undefined || (this.due.at !== null && this.due.at <= now.getTime())) {
      if (this.due !== undefined) {
        // A notice published ahead of time is visible now: every stored count may be short of it.
        this.forgetDue();
        this.counts.invalidateAllLocal();
      }
      this.dueLoad ??= (async () => {
        const epoch = this.epoch;
        const at = await nextDue(now);
        if (epoch === this.epoch) this.due = { at: at ? at.getTime() : null, epoch };
      })().finally(() => (this.dueLoad = undefined));
      await this.dueLoad;
      // Still unknown (a broadcast arrived meanwhile): answer from the database without caching.
      if (this.due === undefined) return load();
    }
    return this.counts.get(userId, load);
  }

  /** After a notice to one user was written, or they read some: their count changed (every process). */
  userChanged(userId: number): void {
    this.counts.invalidate(userId);
  }

  /** After a broadcast was published: everybody's count may have changed (every process). */
  allChanged(): void {
    this.counts.invalidateAll();
  }
}
