import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { ApiError, http, installRequestUi, request, type RequestUi } from './request';

// request() reads sparkNavigate from the address; the unit project runs in node.
beforeAll(() => {
  vi.stubGlobal('window', { location: { search: '' } });
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(null)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

function reply(body: unknown): AxiosAdapter {
  return async (config) => ({ data: body, status: 200, statusText: 'OK', headers: {}, config });
}

function spyUi() {
  const ui = { message: vi.fn(), notify: vi.fn(), authLost: vi.fn(), lackPoints: vi.fn() } satisfies RequestUi;
  installRequestUi(ui);
  return ui;
}

const lack = { code: 1501, msg: '积分不足', data: { iDataEventId: 'article', balance: 2, need: 10 } };

describe('request: 1501 opens the lackPoints prompt', () => {
  it('hands the reply data to the prompt and shows no toast', async () => {
    const ui = spyUi();
    const err = await request({ url: '/writing/run', method: 'POST', adapter: reply(lack) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(1501);
    expect((err as ApiError).data).toEqual(lack.data);
    expect(ui.lackPoints).toHaveBeenCalledWith(lack.data);
    expect(ui.message).not.toHaveBeenCalled();
  });

  it('opens it for background and silent calls too', async () => {
    const ui = spyUi();
    await request({ url: '/mp/task/create', method: 'POST', adapter: reply(lack) }).catch(() => {});
    await request({ url: '/x/y', silent: true, adapter: reply(lack) }).catch(() => {});
    expect(ui.lackPoints).toHaveBeenCalledTimes(2);
  });

  it('stays closed when the caller handles 1501 itself', async () => {
    const ui = spyUi();
    await request({ url: '/x/z', quietCodes: [1501], adapter: reply(lack) }).catch(() => {});
    expect(ui.lackPoints).not.toHaveBeenCalled();
    expect(ui.message).not.toHaveBeenCalled();
  });

  it('keeps the other codes as they were', async () => {
    const ui = spyUi();
    await request({ url: '/x/other', adapter: reply({ code: 1505, msg: '兑换码不存在或已停用', data: null }) }).catch(() => {});
    expect(ui.message).toHaveBeenCalledWith('error', '兑换码不存在或已停用', 3);
    expect(ui.lackPoints).not.toHaveBeenCalled();
    expect(http.defaults.baseURL).toBe('/api');
  });
});

describe('request: binding an account rejects without a message (spec 8)', () => {
  it('shows nothing for a code error or a server failure, but still rejects', async () => {
    const ui = spyUi();
    const err = await request({ url: '/publish/v4/account/bind', method: 'POST', adapter: reply({ code: 1704, msg: '登录未完成', data: null }) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(1704);
    const fail: AxiosAdapter = async (config) => {
      throw Object.assign(new Error('boom'), { code: 'ERR_BAD_RESPONSE', config, response: { status: 502, data: 'bad gateway', headers: {}, config } });
    };
    await expect(request({ url: '/api/publish/v4/account/bind', method: 'POST', adapter: fail })).rejects.toBeInstanceOf(ApiError);
    expect(ui.message).not.toHaveBeenCalled();
    expect(ui.notify).not.toHaveBeenCalled();
  });

  it('still asks the user to log in on 401', async () => {
    const ui = spyUi();
    await request({ url: '/publish/v4/account/bind', method: 'POST', adapter: reply({ code: 401, msg: '请先登录', data: null }) }).catch(() => {});
    expect(ui.authLost).toHaveBeenCalledWith(true);
  });

  it('leaves the neighbouring account calls loud', async () => {
    const ui = spyUi();
    await request({ url: '/publish/account/unbind', method: 'POST', adapter: reply({ code: 1702, msg: '账号不存在', data: null }) }).catch(() => {});
    expect(ui.message).toHaveBeenCalledWith('error', '账号不存在', 3);
  });
});
