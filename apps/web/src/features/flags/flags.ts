import { useSyncExternalStore } from 'react';
import { GrowthBook, configureCache, setPolyfills } from '@growthbook/growthbook';
import { limits } from '@inkstone/shared';
import { settle } from '../../api/request';
import { DEFAULT_TOKEN_NAME, LS, lsGet } from '../../lib/storage-keys';

export const AGENT_STATE_FLAG = 'agent-state';
const CLIENT_KEY = 'inkstone';

/**
 * Flags are evaluated on our server (GrowthBook remote evaluation, `POST /api/eval/<clientKey>`): it targets on what
 * only it knows (full phone, VIP, tracks, bound platforms), so the request carries the session header. A reply that is
 * not a payload (an envelope from an older server, a network error page) counts as "no flags": the defaults apply.
 */
async function featuresFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input instanceof Request ? input.url : input);
  if (!url.includes('/api/eval/')) return fetch(input, init);
  const headers = new Headers(init?.headers);
  headers.set('accept', 'application/json');
  const tokenValue = lsGet(LS.tokenValue);
  if (tokenValue) headers.set(lsGet(LS.tokenName) || DEFAULT_TOKEN_NAME, tokenValue);
  const res = await fetch(`/api/eval/${CLIENT_KEY}`, { ...init, method: 'POST', headers, credentials: 'same-origin' });
  const body: unknown = await res.json().catch(() => null);
  const payload = body && typeof body === 'object' && 'features' in body ? body : { features: {} };
  return new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
}

setPolyfills({ fetch: featuresFetch as typeof fetch });
configureCache({
  staleTTL: limits.featureFlagStaleMs,
  maxAge: limits.featureFlagMaxAgeMs,
  maxEntries: limits.featureFlagMaxEntries,
});

const listeners = new Set<() => void>();
let version = 0;
let ready = false;
const bump = () => {
  version++;
  listeners.forEach((l) => l());
};

export const growthbook = new GrowthBook({
  apiHost: window.location.origin,
  clientKey: CLIENT_KEY,
  enableDevMode: false,
  remoteEval: true,
  // The cache (and a re-evaluation) follows the signed-in user; everything else is read on the server.
  cacheKeyAttributes: ['id'],
});
growthbook.setRenderer(bump);

/** Loads the payload; after 3 s the defaults (every flag off) apply and a late payload still lands. */
export async function loadFlags(): Promise<void> {
  try {
    await growthbook.init({ timeout: limits.flagLoadTimeoutMs, streaming: false });
  } catch {
    // Defaults apply.
  } finally {
    ready = true;
    bump();
  }
}

/**
 * Targeting (spec section 6): the id keys the cache and makes the SDK ask again on login and logout; the phone and the
 * other attributes are the server's own (the client only has the masked phone).
 */
export function setFlagUser(user: { id: number | string } | null): void {
  settle(growthbook.setAttributes(user ? { id: String(user.id) } : {}).then(bump));
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useFlag(key: string): boolean {
  useSyncExternalStore(subscribe, () => version);
  return growthbook.isOn(key);
}

export function useFlagsReady(): boolean {
  return useSyncExternalStore(subscribe, () => ready);
}
