import { ErrorCode, type NextSlotReply } from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { PublishPacingConfig } from '../../config.js';
import { appError } from '../../http/errors.js';
import type { PlatformRegistry } from '../../integrations/platforms/index.js';
import type { PlatformPacing } from '../../integrations/platforms/types.js';
import type { AccountService } from './account.service.js';
import type { AccountRow, PacedJobRow, PublishRepo } from './publish.repo.js';

const DAY_MS = 86_400_000;
/** Platforms count their days in China time (UTC+8, no daylight saving). */
const CHINA_OFFSET_MS = 8 * 3600_000;

export type PacingReason = 'interval' | 'daily_cap';

/** Start (epoch ms) of the Asia/Shanghai calendar day holding `t`: 16:00 UTC of the day before. */
export const chinaDayStart = (t: number): number => Math.floor((t + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;

/**
 * The first time at or after `wanted` that is at least `minIntervalMs` from every taken time (before and after it)
 * and on a China day with fewer than `dailyCap` taken times. `reason` says what ruled out `wanted` itself (the day's
 * cap first: moving within a full day cannot help), null when `wanted` was free.
 */
export function nextFreeSlot(p: PlatformPacing, taken: readonly number[], wanted: number): { at: number; reason: PacingReason | null } {
  let at = wanted;
  let reason: PacingReason | null = null;
  // Each step moves `at` strictly forward past a taken time or a day start, so the loop ends within the taken count.
  for (;;) {
    const day = chinaDayStart(at);
    if (taken.filter((t) => t >= day && t < day + DAY_MS).length >= p.dailyCap) {
      reason ??= 'daily_cap';
      at = day + DAY_MS;
      continue;
    }
    const near = taken.filter((t) => Math.abs(t - at) < p.minIntervalMs);
    if (near.length) {
      reason ??= 'interval';
      at = Math.max(...near) + p.minIntervalMs;
      continue;
    }
    return { at, reason };
  }
}

/** "11月28日 21:40" in China time, rounded up to the minute so the time shown is never before the free slot. */
export function chinaTimeText(t: number): string {
  const d = new Date(Math.ceil(t / 60_000) * 60_000 + CHINA_OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}月${d.getUTCDate()}日 ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/** "2小时", "90分钟" → "1小时30分钟", "45秒". */
export function durationText(ms: number): string {
  const h = Math.floor(ms / 3600_000);
  const m = Math.floor((ms % 3600_000) / 60_000);
  if (!h && !m) return `${Math.ceil(ms / 1000)}秒`;
  return `${h ? `${h}小时` : ''}${m ? `${m}分钟` : ''}`;
}

/**
 * Per-account publishing pace (account safety: 小红书 warns, then mutes, accounts that post in bursts). A platform's
 * adapter declares its default in `limits.pacing`; the operator's PUBLISH_PACING replaces it per platform.
 */
export class PacingService {
  constructor(
    private readonly repo: PublishRepo,
    private readonly accounts: AccountService,
    private readonly platforms: PlatformRegistry,
    private readonly clock: Clock,
    private readonly overrides: PublishPacingConfig = {},
    /** [0, 1): the jitter of a pushed "publish now" (tests may pin it). */
    private readonly random: () => number = Math.random,
  ) {}

  pacingOf(platform: string): PlatformPacing | null {
    if (Object.hasOwn(this.overrides, platform)) return this.overrides[platform as keyof PublishPacingConfig] ?? null;
    return this.platforms.get(platform)?.limits.pacing ?? null;
  }

  /**
   * When a job's note appears: a platform-held (native) schedule at its time, a finished job when it finished,
   * otherwise when it runs (a started job no earlier than its start).
   */
  private timeOf(j: PacedJobRow): number {
    const base = j.status === 'succeeded' ? (j.finishedAt ?? j.runAt).getTime() : Math.max(j.runAt.getTime(), j.startedAt?.getTime() ?? 0);
    const held = j.scheduleAt && this.platforms.get(j.platform)?.limits.schedule?.mode === 'native' ? j.scheduleAt.getTime() : 0;
    return Math.max(base, held);
  }

  /** How far back a job can still matter: the China day of the earliest wanted time, or one interval before it. */
  private since(from: number, paced: PlatformPacing[]): Date {
    return new Date(from - Math.max(DAY_MS, ...paced.map((p) => p.minIntervalMs)));
  }

  /**
   * Stores a publish task whose jobs keep their accounts' pace, deciding under a lock on the paced accounts' rows
   * (so concurrent requests take distinct slots): a "publish now" job of an account that is not free runs at its
   * next free slot plus a random jitter; a time the creator chose is never moved, and when it breaks an account's
   * pace the whole request is refused with PUBLISH_LIMIT (nothing stored) saying the rule and the earliest time.
   */
  async insert(
    userId: number,
    accounts: AccountRow[],
    scheduleAt: Date | null,
    now: Date,
    task: Parameters<PublishRepo['insertTask']>[0],
    rows: Array<Parameters<PublishRepo['insertTask']>[1][number] & { accountId: number; runAt: Date }>,
  ): Promise<void> {
    const paced = accounts.filter((a) => this.pacingOf(a.platform));
    if (!paced.length) return this.repo.insertTask(task, rows);
    const wanted = scheduleAt ?? now;
    const since = this.since(
      Math.min(now.getTime(), wanted.getTime()),
      paced.map((a) => this.pacingOf(a.platform)!),
    );
    await this.repo.insertTaskPaced(task, rows, { userId, accountIds: paced.map((a) => a.id), since }, (existing) => {
      const problems = new Map<string, { platform: string; platformName: string; errors: string[] }>();
      for (const account of paced) {
        const p = this.pacingOf(account.platform)!;
        const taken = existing.filter((j) => j.accountId === account.id).map((j) => this.timeOf(j));
        const free = nextFreeSlot(p, taken, wanted.getTime());
        if (!free.reason) continue;
        if (scheduleAt) {
          const platformName = this.platforms.get(account.platform)?.label ?? account.platform;
          const entry = problems.get(account.platform) ?? { platform: account.platform, platformName, errors: [] };
          entry.errors.push(this.refusal(platformName, account.accountName, p, free.reason, free.at));
          problems.set(account.platform, entry);
          continue;
        }
        // Pushed notes do not land on a round interval after the previous one, which would look scheduled by a machine.
        const jittered = nextFreeSlot(p, taken, free.at + Math.floor(this.random() * p.jitterMs));
        for (const r of rows) if (r.accountId === account.id) r.runAt = new Date(jittered.at);
      }
      if (problems.size) {
        const list = [...problems.values()];
        throw appError(ErrorCode.PUBLISH_LIMIT, list.flatMap((p) => p.errors).join('\n'), { problems: list });
      }
    });
  }

  private refusal(platformName: string, accountName: string, p: PlatformPacing, reason: PacingReason, at: number): string {
    const who = `${platformName}账号「${accountName}」`;
    return reason === 'daily_cap'
      ? `${who}每天最多发布${p.dailyCap}篇，最早可在 ${chinaTimeText(at)} 之后发布`
      : `${who}两次发布至少间隔${durationText(p.minIntervalMs)}，最早可在 ${chinaTimeText(at)} 发布`;
  }

  /** Each of the user's accounts' next free slot from now and its rule; another user's account is "not found". */
  async nextSlots(userId: number, accountIds: number[]): Promise<NextSlotReply> {
    const accounts: AccountRow[] = [];
    for (const id of accountIds) accounts.push(await this.accounts.ownAccount(userId, id));
    const now = this.clock.now().getTime();
    const rules = accounts.map((a) => this.pacingOf(a.platform));
    const existing = await this.repo.pacedJobs(
      userId,
      accounts.map((a) => a.id),
      this.since(
        now,
        rules.filter((p): p is PlatformPacing => p !== null),
      ),
    );
    const today = chinaDayStart(now);
    return {
      slots: accounts.map((a, i) => {
        const p = rules[i]!;
        const taken = existing.filter((j) => j.accountId === a.id).map((j) => this.timeOf(j));
        const usedToday = taken.filter((t) => t >= today && t < today + DAY_MS).length;
        const free = p ? nextFreeSlot(p, taken, now) : { at: now, reason: null };
        return {
          accountId: a.id,
          platform: a.platform,
          nextSlot: new Date(free.at).toISOString(),
          reason: free.reason,
          minIntervalMs: p?.minIntervalMs ?? null,
          dailyCap: p?.dailyCap ?? null,
          usedToday,
        };
      }),
    };
  }
}
