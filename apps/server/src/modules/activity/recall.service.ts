import type { Clock } from '../../clock.js';
import type { RecallRepo } from './recall.repo.js';

const CHINA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The calendar day in China (UTC+8, no daylight saving) as YYYY-MM-DD. */
export const chinaDay = (at: Date) => new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);

/** Recall activity: users who come back through a recall link report the channel once per day. */
export class RecallService {
  constructor(
    private readonly repo: RecallRepo,
    private readonly clock: Clock,
  ) {}

  /** Idempotent per user, channel and China day; returns whether this call recorded a new visit. */
  async recordChannel(userId: number, channel: string): Promise<boolean> {
    const now = this.clock.now();
    return this.repo.recordVisit({ userId, channel, day: chinaDay(now), createdAt: now });
  }
}
