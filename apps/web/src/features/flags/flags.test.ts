import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The flag client of spec section 9 against a stand-in for our server's remote evaluation: `fetch` either never
 * answers, fails, or answers the payload `POST /api/eval/inkstone` serves. localStorage is an in-memory stand-in that
 * survives a module reload (a new page load in the same browser).
 */
type Answer = 'never' | { agent: boolean };
let answer: Answer;
let calls: { url: string; init: RequestInit }[];
let storage: Map<string, string>;

async function freshPage(): Promise<typeof import('./flags')> {
  vi.resetModules();
  return import('./flags');
}

beforeEach(() => {
  answer = 'never';
  calls = [];
  storage = new Map();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  });
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const a = answer;
    if (a === 'never') return new Promise<Response>(() => {});
    return Promise.resolve(new Response(JSON.stringify({ features: { 'agent-state': { defaultValue: a.agent } } }), { headers: { 'content-type': 'application/json' } }));
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('feature flags (spec 9)', () => {
  it('loadFlags gives up on a payload that does not come after 3 s and applies the defaults', async () => {
    vi.useFakeTimers();
    const flags = await freshPage();
    let done = false;
    const loading = flags.loadFlags().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(2_990);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    await loading;
    expect(done).toBe(true);
    expect(flags.isFlagOn('agent-state')).toBe(false);
  });

  it('a payload that comes after the 3 s still lands', async () => {
    vi.useFakeTimers();
    let release!: (r: Response) => void;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (release = resolve)));
    const flags = await freshPage();
    await Promise.all([flags.loadFlags(), vi.advanceTimersByTimeAsync(3_000)]);
    expect(flags.isFlagOn('agent-state')).toBe(false);
    release(new Response(JSON.stringify({ features: { 'agent-state': { defaultValue: true } } })));
    await vi.advanceTimersByTimeAsync(0);
    expect(flags.isFlagOn('agent-state')).toBe(true);
  });

  it('asks the server with the session header and reads the evaluated values; anything but a payload is "no flags"', async () => {
    storage.set('tokenName', 'satoken');
    storage.set('tokenValue', 'tok-1');
    answer = { agent: true };
    let flags = await freshPage();
    await flags.loadFlags();
    expect(flags.isFlagOn('agent-state')).toBe(true);
    expect(flags.isFlagOn('unknown-flag')).toBe(false);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/eval/inkstone');
    expect(calls[0]!.init.method).toBe('POST');
    expect((calls[0]!.init.headers as Record<string, string>).satoken).toBe('tok-1');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ attributes: {} });

    // An envelope (an older server) counts as a payload without flags.
    storage.clear();
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ code: 500, msg: '服务异常' }), { status: 500 })));
    flags = await freshPage();
    await flags.loadFlags();
    expect(flags.isFlagOn('agent-state')).toBe(false);

    // Unreachable: the defaults apply and nothing is cached.
    storage.clear();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    flags = await freshPage();
    await flags.loadFlags();
    expect(flags.isFlagOn('agent-state')).toBe(false);
    expect(storage.has('gbFeaturesCache')).toBe(false);
  });

  it('asks again for another user (login, logout), sending the id; a later answer is not overwritten by an earlier one', async () => {
    answer = { agent: false };
    const flags = await freshPage();
    await flags.loadFlags();
    expect(calls).toHaveLength(1);

    answer = { agent: true };
    flags.setFlagUser({ id: 7 });
    await vi.waitFor(() => expect(flags.isFlagOn('agent-state')).toBe(true));
    expect(calls).toHaveLength(2);
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ attributes: { id: '7' } });

    // Logging out: the logged-out answer cached a moment ago is used as it is.
    flags.setFlagUser(null);
    expect(flags.isFlagOn('agent-state')).toBe(false);
    expect(calls).toHaveLength(2);

    // User 8's answer is slow, user 9's is not: 8's must not replace 9's when it finally comes.
    let release8!: (r: Response) => void;
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const id = (JSON.parse(String(init.body)) as { attributes: { id?: string } }).attributes.id;
      if (id === '8') return new Promise<Response>((resolve) => (release8 = resolve));
      return Promise.resolve(new Response(JSON.stringify({ features: { 'agent-state': { defaultValue: true } } })));
    });
    flags.setFlagUser({ id: 8 });
    flags.setFlagUser({ id: 9 });
    await vi.waitFor(() => expect(flags.isFlagOn('agent-state')).toBe(true));
    release8(new Response(JSON.stringify({ features: { 'agent-state': { defaultValue: false } } })));
    await new Promise((r) => setTimeout(r, 0));
    expect(flags.isFlagOn('agent-state')).toBe(true);
  });

  it('on login and logout a fresh cached answer is used as it is, a stale one is asked for again', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T08:00:00Z') });
    answer = { agent: true };
    const flags = await freshPage();
    await Promise.all([flags.loadFlags(), vi.advanceTimersByTimeAsync(0)]);
    expect(calls).toHaveLength(1);
    flags.setFlagUser({ id: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    flags.setFlagUser(null);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(61_000);
    answer = { agent: false };
    flags.setFlagUser({ id: 1 });
    expect(flags.isFlagOn('agent-state')).toBe(true); // the stale answer is not applied; the current values stay
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    expect(flags.isFlagOn('agent-state')).toBe(false);
  });

  it('caches answers: stale after 60 s, max age 4 h, 10 entries', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T08:00:00Z') });
    answer = { agent: true };
    /** A new page load for a user: the module (and its memory) starts over, localStorage stays. */
    const load = async (id?: number) => {
      const flags = await freshPage();
      if (id !== undefined) flags.setFlagUser({ id });
      await Promise.all([flags.loadFlags(), vi.advanceTimersByTimeAsync(0)]);
      return flags;
    };
    expect((await load()).isFlagOn('agent-state')).toBe(true);
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(59_000);
    answer = { agent: false };
    expect((await load()).isFlagOn('agent-state')).toBe(true); // fresh: served from the cache
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(2_000);
    const stale = await load();
    expect(calls).toHaveLength(2); // stale: served from the cache at once, refreshed behind
    expect(stale.isFlagOn('agent-state')).toBe(false); // ...and the refreshed answer lands
    expect((await load()).isFlagOn('agent-state')).toBe(false); // the refreshed answer is cached
    expect(calls).toHaveLength(2);

    // Eleven other users push the oldest entries out: the logged-out entry has to be fetched again.
    for (let i = 0; i < 11; i++) await load(100 + i);
    expect(calls).toHaveLength(13);
    expect(JSON.parse(storage.get('gbFeaturesCache')!)).toHaveLength(10);
    await load();
    expect(calls).toHaveLength(14);

    // Within 4 h a stale entry is still used (with a background refresh); past 4 h it is not even used as stale.
    answer = { agent: true };
    await load(200);
    expect(calls).toHaveLength(15);
    await vi.advanceTimersByTimeAsync(4 * 60 * 60 * 1000 - 30_000);
    answer = 'never';
    expect((await load(200)).isFlagOn('agent-state')).toBe(true);
    expect(calls).toHaveLength(16); // one background refresh (never answered)
    await vi.advanceTimersByTimeAsync(31_000);
    const aged = await freshPage();
    aged.setFlagUser({ id: 200 });
    let done = false;
    const waiting = aged.loadFlags().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false); // nothing usable in the cache: it waits for the network
    await vi.advanceTimersByTimeAsync(3_000);
    await waiting;
    expect(aged.isFlagOn('agent-state')).toBe(false);
  });
});
