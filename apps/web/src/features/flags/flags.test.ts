import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GrowthBook } from '@growthbook/growthbook';

/**
 * The flag client of spec section 9 on the real GrowthBook SDK; only the network under it is
 * replaced: `fetch` either never answers or answers the payload our server serves.
 */
let flags: typeof import('./flags');
let fetches = 0;
let answer: 'never' | 'payload' = 'never';
beforeAll(async () => {
  vi.stubGlobal('window', { location: { origin: 'http://app.test' } });
  vi.stubGlobal('fetch', () => {
    fetches++;
    if (answer === 'never') return new Promise<Response>(() => {});
    return Promise.resolve(new Response(JSON.stringify({ features: { 'agent-state': { defaultValue: true } } }), { headers: { 'content-type': 'application/json' } }));
  });
  // After the stubs: the module reads window and configures the SDK cache when it loads.
  flags = await import('./flags');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('feature flags (spec 9)', () => {
  it('loadFlags gives up on a payload that does not come after 3 s and applies the defaults', async () => {
    vi.useFakeTimers();
    const { loadFlags, growthbook } = flags;
    answer = 'never';
    let done = false;
    const loading = loadFlags().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(2_990);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    await loading;
    expect(done).toBe(true);
    expect(growthbook.isOn('agent-state')).toBe(false);
  });

  it('configures the SDK cache: stale after 60 s, max age 4 h, 10 entries', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T08:00:00Z') });
    answer = 'payload';
    // Another client key than the app's: the app's first fetch above never answered.
    const client = (key = 'cache-test') => new GrowthBook({ apiHost: 'http://app.test', clientKey: key });
    const init = async (key?: string) => {
      const gb = client(key);
      await gb.init({ timeout: 3_000 });
      return gb;
    };
    const before = fetches;
    expect((await init()).isOn('agent-state')).toBe(true);
    expect(fetches).toBe(before + 1);

    await vi.advanceTimersByTimeAsync(59_000);
    await init();
    expect(fetches).toBe(before + 1); // fresh: served from the cache

    await vi.advanceTimersByTimeAsync(2_000);
    expect((await init()).isOn('agent-state')).toBe(true); // stale: served from the cache, refreshed behind
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toBe(before + 2);

    // Eleven other keys push the oldest entries out: the first key has to be fetched again.
    for (let i = 0; i < 11; i++) await init(`other-${i}`);
    const afterOthers = fetches;
    expect(afterOthers).toBe(before + 13);
    await init();
    expect(fetches).toBe(afterOthers + 1);

    // Past 4 h a cached payload is not used even as stale: the client waits for a fetch.
    await init('aged');
    const beforeAged = fetches;
    await vi.advanceTimersByTimeAsync(4 * 60 * 60 * 1000 - 30_000);
    await init('aged');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toBe(beforeAged + 1); // stale but within max age: one background refresh
    await vi.advanceTimersByTimeAsync(4 * 60 * 60 * 1000 + 1);
    answer = 'never';
    let done = false;
    const waiting = init('aged').then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false); // nothing usable in the cache: it waits for the network
    await vi.advanceTimersByTimeAsync(3_000);
    await waiting;
  });
});
