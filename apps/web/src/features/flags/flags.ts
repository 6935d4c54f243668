import { useSyncExternalStore } from 'react';
import { limits } from '@inkstone/shared';
import { settle } from '../../api/request';
import { DEFAULT_TOKEN_NAME, LS, lsGet, lsSet } from '../../lib/storage-keys';

export const AGENT_STATE_FLAG = 'agent-state';
const CLIENT_KEY = 'inkstone';

/** What remote evaluation answers: each feature's value for this user, without its rules. */
type Features = Record<string, { defaultValue?: unknown }>;
interface CacheEntry {
  features: Features;
  /** Epoch ms after which the entry is stale (fetched + 60 s). */
  staleAt: number;
}

/**
 * Flags are evaluated on our server (GrowthBook remote evaluation, `POST /api/eval/<clientKey>`): it targets on what
 * only it knows (full phone, VIP, tracks, bound platforms), so the request carries the session header and the client
 * only reads the values. The client is a small fetch with the cache of spec section 9 (stale after 60 s, max age 4 h,
 * 10 entries, kept in localStorage under the SDK's old key), not the GrowthBook SDK: there are no rules to run here.
 */
async function fetchFeatures(attributes: Record<string, string>): Promise<Features> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  const tokenValue = lsGet(LS.tokenValue);
  if (tokenValue) headers[lsGet(LS.tokenName) || DEFAULT_TOKEN_NAME] = tokenValue;
  const res = await fetch(`/api/eval/${CLIENT_KEY}`, { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ attributes }) });
  // A reply that is not a payload (an envelope from an older server, an error page) counts as "no flags": the
  // defaults apply. Only a network failure is an error (nothing is cached).
  const body: unknown = await res.json().catch(() => null);
  const features = body && typeof body === 'object' && 'features' in body ? body.features : null;
  return features && typeof features === 'object' ? (features as Features) : {};
}

// The cache, keyed on the user id (the server reads everything else from the session).
const cache = new Map<string, CacheEntry>();
let cacheLoaded = false;
const inFlight = new Map<string, Promise<Features | null>>();

function loadCache(): void {
  if (cacheLoaded) return;
  cacheLoaded = true;
  try {
    const parsed: unknown = JSON.parse(lsGet(LS.featuresCache) ?? '[]');
    if (!Array.isArray(parsed)) return;
    for (const item of parsed as unknown[]) {
      // Entries in another shape (the GrowthBook SDK's, from before) are dropped.
      if (!Array.isArray(item) || typeof item[0] !== 'string') continue;
      const entry = item[1] as Partial<CacheEntry> | null;
      if (entry && typeof entry.staleAt === 'number' && entry.features && typeof entry.features === 'object') {
        cache.set(item[0], { features: entry.features, staleAt: entry.staleAt });
      }
    }
  } catch {
    // Unreadable: start empty.
  }
  trimCache();
}

/** At most 10 entries: the ones that went stale first leave. */
function trimCache(): void {
  const over = cache.size - limits.featureFlagMaxEntries;
  if (over <= 0) return;
  const oldest = [...cache].sort((a, b) => a[1].staleAt - b[1].staleAt).slice(0, over);
  for (const [key] of oldest) cache.delete(key);
}

const listeners = new Set<() => void>();
let version = 0;
let ready = false;
let started = false;
let userId: string | undefined;
let current: Features = {};
/** Requests are numbered as they start; an answer applies unless a later one has already been applied. */
let requestSeq = 0;
let appliedSeq = 0;
const bump = () => {
  version++;
  listeners.forEach((l) => l());
};

function apply(seq: number, features: Features): void {
  if (seq < appliedSeq) return;
  appliedSeq = seq;
  current = features;
  bump();
}

const cacheKey = () => JSON.stringify({ id: userId });

/** One request per cache key at a time; the answer is cached and, if nothing newer was applied meanwhile, applied. */
function refresh(): Promise<Features | null> {
  const key = cacheKey();
  const seq = ++requestSeq;
  let request = inFlight.get(key);
  if (!request) {
    request = fetchFeatures(userId === undefined ? {} : { id: userId })
      .then((features) => {
        cache.set(key, { features, staleAt: Date.now() + limits.featureFlagStaleMs });
        trimCache();
        lsSet(LS.featuresCache, JSON.stringify([...cache]));
        return features;
      })
      .catch(() => null)
      .finally(() => inFlight.delete(key));
    inFlight.set(key, request);
  }
  return request.then((features) => {
    if (features) apply(seq, features);
    return features;
  });
}

/**
 * The cached entry for the current user: a fresh one always, a stale one only if `allowStale` and it is younger than
 * the max age (fetched within 4 h).
 */
function cached(allowStale: boolean): CacheEntry | undefined {
  loadCache();
  const entry = cache.get(cacheKey());
  const now = Date.now();
  if (!entry || entry.staleAt <= now - limits.featureFlagMaxAgeMs + limits.featureFlagStaleMs) return undefined;
  return allowStale || entry.staleAt > now ? entry : undefined;
}

/**
 * Loads the flags: a cached answer at once (a stale one is refreshed behind it), otherwise the server's; after 3 s the
 * defaults (every flag off) apply and a late answer still lands.
 */
export async function loadFlags(): Promise<void> {
  started = true;
  try {
    const entry = cached(true);
    if (entry) {
      apply(++requestSeq, entry.features);
      if (entry.staleAt <= Date.now()) settle(refresh());
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limits.flagLoadTimeoutMs);
    });
    await Promise.race([refresh(), timeout]);
    clearTimeout(timer);
  } finally {
    ready = true;
    bump();
  }
}

/**
 * Targeting (spec section 6): the id keys the cache and makes the client ask again on login and logout (a fresh cached
 * answer for that id is used as it is); the phone and the other attributes are the server's own.
 */
export function setFlagUser(user: { id: number | string } | null): void {
  userId = user ? String(user.id) : undefined;
  if (!started) return;
  const entry = cached(false);
  if (entry) apply(++requestSeq, entry.features);
  else settle(refresh());
}

export function isFlagOn(key: string): boolean {
  return Boolean(current[key]?.defaultValue);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useFlag(key: string): boolean {
  useSyncExternalStore(subscribe, () => version);
  return isFlagOn(key);
}

export function useFlagsReady(): boolean {
  return useSyncExternalStore(subscribe, () => ready);
}
