import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { limits } from '@inkstone/shared';
import { authApi } from './auth';
import { publishApi } from './publish';
import { http, type HttpAdapter, type HttpConfig } from './http';
import { ApiError, installRequestUi, request, type RequestUi } from './request';
import { topicApi } from './topic';
import { userApi } from './user';
import { vipApi } from './vip';

// request() reads sparkNavigate from the address; the unit project runs in node. The analytics post of a code goes
// nowhere; everything else reaches the network (the real-socket cases below).
const realFetch = globalThis.fetch;
beforeAll(() => {
  vi.stubGlobal('window', { location: { search: '' } });
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => (String(input).includes('/log/collect') ? Promise.resolve(new Response(null)) : realFetch(input, init)));
});

/** Spec section 9's per-call timeouts: what each call hands to the HTTP client, whose own timer enforces it. */
describe('request timeouts per call (spec 9)', () => {
  const seen: HttpConfig[] = [];
  const capture: HttpAdapter = async (config) => {
    seen.push(config);
    return { data: { code: 0, msg: 'ok', data: null }, status: 200, headers: {} };
  };
  const timeoutOf = async (call: () => Promise<unknown>) => {
    seen.length = 0;
    await call();
    expect(seen).toHaveLength(1);
    return seen[0]!.timeout;
  };
  const original = http.defaults.adapter;
  beforeAll(() => {
    http.defaults.adapter = capture;
  });
  afterAll(() => {
    http.defaults.adapter = original;
  });

  it('default 300000 ms for an ordinary call', async () => {
    expect(await timeoutOf(() => userApi.globalSetting())).toBe(300_000);
    expect(limits.defaultRequestTimeoutMs).toBe(300_000);
  });

  it('login 10000 ms: doLogin0, doLoginWx and the hand-over login; nowLoginUser 10000 ms', async () => {
    expect(await timeoutOf(() => authApi.doLogin0({ phone: '13800000000', code: '123456' }))).toBe(10_000);
    expect(await timeoutOf(() => authApi.doLoginWx({ scene: 's' }))).toBe(10_000);
    expect(await timeoutOf(() => authApi.sparkLogin('t'))).toBe(10_000);
    expect(await timeoutOf(() => authApi.nowLoginUser())).toBe(10_000);
  });

  it('payment QR 30000 ms, for VIP plans and points bundles', async () => {
    const signal = new AbortController().signal;
    expect(await timeoutOf(() => vipApi.createQr('vip', '1', 'wechat', signal))).toBe(30_000);
    expect(await timeoutOf(() => vipApi.createQr('bundle', '1', 'wechat', signal))).toBe(30_000);
  });

  it('account list (page 1, size 200) and track search 30000 ms', async () => {
    expect(await timeoutOf(() => publishApi.accounts())).toBe(30_000);
    expect(seen[0]!.params).toMatchObject({ pageNum: 1, pageSize: 200 });
    expect(await timeoutOf(() => publishApi.list())).toBe(30_000);
    expect(await timeoutOf(() => topicApi.search('美食'))).toBe(30_000);
  });
});

/** A real HTTP server that holds every request open, so cancelling and timing out happen on the wire. */
describe('cancelling and timing out against a real socket', () => {
  let server: Server;
  let held = 0;
  const ui = { message: vi.fn(), notify: vi.fn(), authLost: vi.fn() } satisfies RequestUi;
  beforeAll(async () => {
    server = createServer(() => {
      held++; // never answers
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    http.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    installRequestUi(ui);
  });
  afterAll(async () => {
    http.defaults.baseURL = '/api';
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  afterEach(() => vi.clearAllMocks());

  it('the pay QR call is cancellable: aborting rejects with cancel and shows nothing', async () => {
    const ctl = new AbortController();
    const before = held;
    const pending = vipApi.createQr('vip', '1', 'wechat', ctl.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(held).toBe(before + 1));
    ctl.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('cancel');
    expect(ui.message).not.toHaveBeenCalled();
  });

  it('a call past its timeout shows 请求超时，请稍后再试', async () => {
    const err = await request({ url: '/slow/call', timeout: 200 }).catch((e: unknown) => e);
    expect((err as ApiError).kind).toBe('timeout');
    expect(ui.message).toHaveBeenCalledWith('error', '请求超时，请稍后再试', 3);
  });

  it('a background call that times out stays silent (spec 8: most background calls fail silently)', async () => {
    const err = await request({ url: '/notice/v2/list', timeout: 200 }).catch((e: unknown) => e);
    expect((err as ApiError).kind).toBe('timeout');
    expect(ui.message).not.toHaveBeenCalled();
  });
});
