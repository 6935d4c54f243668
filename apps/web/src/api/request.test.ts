import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, type HttpAdapter } from './http';
import { ApiError, installRequestUi, request, settle, type RequestUi } from './request';

// request() reads sparkNavigate from the address; the unit project runs in node.
beforeAll(() => {
  vi.stubGlobal('window', { location: { search: '' } });
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(null)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

function reply(body: unknown): HttpAdapter {
  return async () => ({ data: body, status: 200, headers: {} });
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
    const err = await request({ url: '/publish/v4/account/bind', method: 'POST', adapter: reply({ code: 1704, msg: '登录未完成', data: null }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(1704);
    const fail: HttpAdapter = async () => ({ status: 502, data: 'bad gateway', headers: {} });
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

describe('request: background calls fail silently (spec 8)', () => {
  it('a background call answered with an error code or a bad reply shows nothing, but still rejects', async () => {
    const ui = spyUi();
    for (const url of ['/notice/v2/list', '/vip/user/score', '/topic/v3/track/info', '/user/event/report']) {
      const err = await request({ url, adapter: reply({ code: 1234, msg: '后台失败', data: null }) }).catch((e: unknown) => e);
      expect((err as ApiError).code).toBe(1234);
      await request({ url, adapter: reply('<html>bad gateway</html>') }).catch(() => {});
    }
    expect(ui.message).not.toHaveBeenCalled();
    expect(ui.notify).not.toHaveBeenCalled();
  });

  it('the same reply on a call the user started shows its msg', async () => {
    const ui = spyUi();
    await request({ url: '/notice/read', adapter: reply({ code: 1234, msg: '前台失败', data: null }) }).catch(() => {});
    expect(ui.message).toHaveBeenCalledWith('error', '前台失败', 3);
  });
});

describe('request: downloads (spec 8)', () => {
  it('returns a content-disposition reply whole, with its file name', async () => {
    const ui = spyUi();
    const bytes = new TextEncoder().encode('{"code":1,"msg":"not an envelope to read"}');
    const download: HttpAdapter = async () => ({
      data: new Blob([bytes]),
      status: 200,
      headers: { 'content-disposition': "attachment; filename*=UTF-8''%E6%96%87%E7%AB%A0.docx" },
    });
    const res = await request<{ blob: Blob; filename: string | null }>({ url: '/writing/draft/export', responseType: 'blob', adapter: download });
    expect(res.filename).toBe('文章.docx');
    expect(new Uint8Array(await res.blob.arrayBuffer())).toEqual(bytes);
    expect(ui.message).not.toHaveBeenCalled();
  });
});

describe('settle: a promise nobody awaits still reaches the user', () => {
  it('adds nothing to an API error request() has already shown, and leaves no unhandled rejection', async () => {
    const ui = spyUi();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const failed = request({ url: '/x/shown', adapter: reply({ code: 1001, msg: '参数错误：标题', data: null }) });
    settle(failed);
    await failed.catch(() => {});
    await new Promise((r) => setTimeout(r, 0));
    process.off('unhandledRejection', unhandled);
    expect(ui.message).toHaveBeenCalledTimes(1);
    expect(ui.message).toHaveBeenCalledWith('error', '参数错误：标题', expect.any(Number));
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('shows a failure that is not an API error and hands it to the error reporter', async () => {
    const ui = spyUi();
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const boom = new Error('pdf.js failed');
    const task = Promise.reject(boom);
    settle(task);
    await task.catch(() => {});
    await new Promise((r) => setTimeout(r, 0));
    expect(ui.message).toHaveBeenCalledWith('error', '操作失败，请稍后重试', 3);
    expect(reported).toHaveBeenCalledWith(boom);
  });

  it('accepts an optional promise that is not there', () => {
    const ui = spyUi();
    settle(undefined);
    expect(ui.message).not.toHaveBeenCalled();
  });
});

describe('request: one message per URL per 500 ms (spec 8 and 9)', () => {
  it('a second failure of the same URL inside 500 ms shows nothing; at 500 ms it shows again', async () => {
    const ui = spyUi();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const t0 = new Date('2026-03-01T09:00:00+08:00').getTime();
      const fail = (msg: string) => request({ url: '/x/dedupe?page=1', adapter: reply({ code: 1234, msg, data: null }) }).catch(() => {});
      vi.setSystemTime(t0);
      await fail('第一次');
      vi.setSystemTime(t0 + 499);
      await fail('窗口之内');
      // Another URL is not held back by the first one's window.
      await request({ url: '/x/other-url', adapter: reply({ code: 1234, msg: '别的地址', data: null }) }).catch(() => {});
      vi.setSystemTime(t0 + 500);
      await fail('窗口之后');
      expect(ui.message.mock.calls.map((c) => c[1])).toEqual(['第一次', '别的地址', '窗口之后']);
    } finally {
      vi.useRealTimers();
    }
  });
});
