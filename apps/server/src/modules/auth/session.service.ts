import { ErrorCode, limits, TOKEN_NAME, type LoginDevice } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../security/hashing.js';
import type { Clock } from '../../clock.js';
import { LRUCache } from 'lru-cache';
import type { SessionAuthenticator, SessionInfo } from '../../http/auth-guard.js';
import type { SessionRepo } from './session.repo.js';
import type { InvalidationBus } from '../../cache/bus.js';

export type { SessionInfo };

/** Sliding expiry is written at most once a minute per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

interface CachedSession extends SessionInfo {
  expiresAt: number;
  /** When a call is answered from this entry and the row read again behind it (refresh-ahead). */
  refreshAt: number;
}

/**
 * How much earlier than TOUCH_INTERVAL_MS a token's entry is refreshed: fixed per token, up to half the interval, so
 * that sessions cached in the same second (a restart, a wave of logins, a bench's seeded users) are read again spread
 * over thirty seconds rather than all at once (1,000 reads and touches queued on a pool of 10 held polls up).
 */
const refreshLeadMs = (tokenHash: string) => Number.parseInt(tokenHash.slice(0, 8), 16) % (TOUCH_INTERVAL_MS / 2);

/**
 * Live sessions are cached in-process: every API call authenticates, and the lookup would otherwise dominate cheap
 * calls such as the 15 s polls. A logout or revocation in any process drops the entry in every process through the
 * invalidation bus (Redis pub/sub when several processes run). Once an entry is due (30-60 s after it was cached,
 * refreshLeadMs) the call is still answered from it, and the row is read behind the answer, and touched when its
 * sliding expiry was last written over TOUCH_INTERVAL_MS ago (refresh-ahead): polls never wait on the database, and
 * sessions cached together do not all read in the same second. That read also bounds changes made behind the service (a user disabled by hand):
 * they are seen from the next call after it. An entry not used for SESSION_CACHE_TTL_MS is looked up again in line.
 */
const SESSION_CACHE_TTL_MS = 2 * TOUCH_INTERVAL_MS;
const TOPIC = 'session';

export class SessionService implements SessionAuthenticator {
  private readonly cache: LRUCache<string, CachedSession>;
  /** Bumped by every invalidation: a lookup that raced one is answered but not cached (it may predate the revocation). */
  private epoch = 0;
  /** Tokens whose row is being read behind a cached answer (one read per token at a time). */
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly repo: SessionRepo,
    private readonly clock: Clock,
    private readonly bus: InvalidationBus,
    /** CACHE_MAX_ENTRIES. */
    cacheMaxEntries: number,
  ) {
    this.cache = new LRUCache<string, CachedSession>({ max: cacheMaxEntries, ttl: SESSION_CACHE_TTL_MS });
    bus.subscribe(TOPIC, (m) => {
      this.epoch += 1;
      const id = Number(m.slice(2));
      if (m.startsWith('s:')) this.evict((s) => s.sessionId === id);
      else if (m.startsWith('u:')) this.evict((s) => s.userId === id);
      else this.cache.clear();
    });
    bus.onReset(() => {
      this.epoch += 1;
      this.cache.clear();
    });
  }

  async create(userId: number, meta: { device?: string | null; ip?: string | null; client?: string | null }): Promise<{ tokenName: string; tokenValue: string }> {
    const token = randomToken(32);
    const now = this.clock.now();
    await this.repo.insert({
      userId,
      tokenHash: sha256Hex(token),
      device: meta.device ?? null,
      ip: meta.ip ?? null,
      client: meta.client ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + limits.sessionTtlMs),
    });
    return { tokenName: TOKEN_NAME, tokenValue: token };
  }

  /** Missing, unknown or expired token: 401. Revoked session or deleted/disabled user: 430. */
  async authenticate(token: string | undefined): Promise<SessionInfo> {
    if (!token) throw appError(ErrorCode.NOT_LOGGED_IN);
    const now = this.clock.now();
    const tokenHash = sha256Hex(token);
    return this.fromCache(tokenHash, now) ?? this.lookup(tokenHash, now);
  }

  /**
   * The session of a live token when this process has it cached, without a promise (the hot lane answers polls with
   * it); undefined when it must be read, which only `authenticate` does.
   */
  cachedSession(token: string): SessionInfo | undefined {
    return this.fromCache(sha256Hex(token), this.clock.now());
  }

  private fromCache(tokenHash: string, now: Date): SessionInfo | undefined {
    const cached = this.cache.get(tokenHash);
    if (!cached || cached.expiresAt <= now.getTime()) return undefined;
    if (now.getTime() >= cached.refreshAt && !this.refreshing.has(tokenHash)) {
      this.refreshing.add(tokenHash);
      // A refused session was dropped by the read; a failed read (database away) keeps the entry, and the next call
      // tries again.
      void this.lookup(tokenHash, now)
        .catch(() => undefined)
        .finally(() => this.refreshing.delete(tokenHash));
    }
    return { sessionId: cached.sessionId, userId: cached.userId };
  }

  /** Reads the session row, touches its sliding expiry when due, and caches it (unless an invalidation raced the read). */
  private async lookup(tokenHash: string, now: Date): Promise<SessionInfo> {
    const epoch = this.epoch;
    const row = await this.repo.byTokenHash(tokenHash);
    // A refused session leaves the cache now; a live one keeps its entry through the touch below, so that a refresh
    // behind an answer (refresh-ahead) never leaves a hole in which every call of the token reads and touches again.
    const refuse = (err: Error): never => {
      this.cache.delete(tokenHash);
      throw err;
    };
    if (!row) return refuse(appError(ErrorCode.NOT_LOGGED_IN));
    if (row.revokedAt || row.deletedAt || row.disabledAt) return refuse(appError(ErrorCode.SESSION_REVOKED));
    if (row.expiresAt <= now) return refuse(appError(ErrorCode.NOT_LOGGED_IN, '登录已过期，请重新登录'));
    let { expiresAt, lastSeenAt } = row;
    if (now.getTime() - lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      lastSeenAt = now;
      expiresAt = new Date(now.getTime() + limits.sessionTtlMs);
      await this.repo.touch(row.id, lastSeenAt, expiresAt);
    }
    const refreshAt = now.getTime() + TOUCH_INTERVAL_MS - refreshLeadMs(tokenHash);
    if (epoch === this.epoch) this.cache.set(tokenHash, { sessionId: row.id, userId: row.userId, expiresAt: expiresAt.getTime(), refreshAt });
    // An invalidation raced the read: the bus handler dropped what matched, and what was read may be stale.
    else this.cache.delete(tokenHash);
    return { sessionId: row.id, userId: row.userId };
  }

  private evict(match: (s: CachedSession) => boolean) {
    for (const [key, value] of this.cache.entries()) if (match(value)) this.cache.delete(key);
  }

  /** Written first, then every process drops its copy (dropping first would let a lookup in between cache it again). */
  async revoke(sessionId: number, reason: string) {
    await this.repo.revoke(sessionId, this.clock.now(), reason);
    this.bus.publish(TOPIC, `s:${sessionId}`);
  }

  async revokeAll(userId: number, reason: string) {
    await this.repo.revokeAllOfUser(userId, this.clock.now(), reason);
    this.bus.publish(TOPIC, `u:${userId}`);
  }

  /** The login devices of the settings page: every live session, the caller's marked. */
  async devices(userId: number, currentSessionId: number): Promise<LoginDevice[]> {
    const rows = await this.repo.liveOfUser(userId, this.clock.now());
    return rows.map((r) => ({
      id: r.id,
      current: r.id === currentSessionId,
      device: r.device,
      client: r.client,
      ip: r.ip,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
    }));
  }

  /** Signs one device out; another user's session id is refused exactly like an unknown one (no probing of ids). */
  async revokeOwn(userId: number, sessionId: number) {
    if (!(await this.repo.revokeOfUser(userId, sessionId, this.clock.now(), 'signed-out-from-settings'))) throw appError(ErrorCode.NOT_FOUND, '登录设备不存在或已退出');
    this.bus.publish(TOPIC, `s:${sessionId}`);
  }

  /** Housekeeping: drop sessions that expired long ago. */
  async purgeExpired(olderThanDays = 30) {
    await this.repo.purgeExpiredBefore(olderThanDays);
  }
}
