import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { ErrorCode, limits, TOKEN_NAME } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';
import { appError } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../security/hashing.js';
import type { Clock } from '../../clock.js';
import { LRUCache } from 'lru-cache';
import type { SessionAuthenticator, SessionInfo } from '../../http/auth-guard.js';

export type { SessionInfo };

/** Sliding expiry is written at most once a minute per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

interface CachedSession extends SessionInfo {
  expiresAt: number;
  lastSeenAt: number;
}

/**
 * Live sessions are cached in-process for a few seconds: every API call authenticates, and the
 * lookup would otherwise dominate cheap calls such as the 15 s polls. Revocation through this process
 * evicts at once; another process sees it within SESSION_CACHE_TTL_MS.
 */
const SESSION_CACHE_TTL_MS = 5_000;

export class SessionService implements SessionAuthenticator {
  private readonly cache = new LRUCache<string, CachedSession>({ max: 20_000, ttl: SESSION_CACHE_TTL_MS });

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, meta: { device?: string | null; ip?: string | null }): Promise<{ tokenName: string; tokenValue: string }> {
    const token = randomToken(32);
    const now = this.clock.now();
    await this.db.insert(sessions).values({
      userId,
      tokenHash: sha256Hex(token),
      device: meta.device ?? null,
      ip: meta.ip ?? null,
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
    const cached = this.cache.get(tokenHash);
    if (cached && cached.expiresAt > now.getTime() && now.getTime() - cached.lastSeenAt <= TOUCH_INTERVAL_MS) {
      return { sessionId: cached.sessionId, userId: cached.userId };
    }
    const [row] = await this.db
      .select({
        id: sessions.id,
        userId: sessions.userId,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
        revokedAt: sessions.revokedAt,
        deletedAt: users.deletedAt,
        disabledAt: users.disabledAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash));
    this.cache.delete(tokenHash);
    if (!row) throw appError(ErrorCode.NOT_LOGGED_IN);
    if (row.revokedAt || row.deletedAt || row.disabledAt) throw appError(ErrorCode.SESSION_REVOKED);
    if (row.expiresAt <= now) throw appError(ErrorCode.NOT_LOGGED_IN, '登录已过期，请重新登录');
    let { expiresAt, lastSeenAt } = row;
    if (now.getTime() - lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      lastSeenAt = now;
      expiresAt = new Date(now.getTime() + limits.sessionTtlMs);
      await this.db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, row.id));
    }
    this.cache.set(tokenHash, { sessionId: row.id, userId: row.userId, expiresAt: expiresAt.getTime(), lastSeenAt: lastSeenAt.getTime() });
    return { sessionId: row.id, userId: row.userId };
  }

  private evict(match: (s: CachedSession) => boolean) {
    for (const [key, value] of this.cache.entries()) if (match(value)) this.cache.delete(key);
  }

  async revoke(sessionId: number, reason: string) {
    this.evict((s) => s.sessionId === sessionId);
    await this.db
      .update(sessions)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  async revokeAll(userId: number, reason: string) {
    this.evict((s) => s.userId === userId);
    await this.db
      .update(sessions)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  /** Housekeeping: drop sessions that expired long ago. */
  async purgeExpired(olderThanDays = 30) {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, sql`now() - make_interval(days => ${olderThanDays})`));
  }
}
