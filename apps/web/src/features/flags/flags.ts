import { useSyncExternalStore } from 'react';
import { GrowthBook, configureCache, setPolyfills } from '@growthbook/growthbook';
import { limits } from '@inkstone/shared';

export const AGENT_STATE_FLAG = 'agent-state';
const CLIENT_KEY = 'inkstone';

/**
 * Our server answers `GET /api/features` with the SDK payload itself; the SDK asks for
 * `<host>/api/features/<clientKey>`, so fetches are pointed at our path. A reply that is not a
 * payload (for instance the 1002 envelope while the endpoint does not exist) counts as "no flags".
 */
async function featuresFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input instanceof Request ? input.url : input);
  if (!url.includes('/api/features/')) return fetch(input, init);
  const res = await fetch('/api/features', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
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

/** Targeting attributes of spec section 6. */
export function setFlagUser(user: { id: number | string; phone: string | null } | null): void {
  void growthbook.setAttributes(user ? { id: String(user.id), phone: user.phone ?? '' } : {}).then(bump);
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
