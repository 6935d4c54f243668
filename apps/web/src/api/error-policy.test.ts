import { describe, expect, it } from 'vitest';
import {
  MSG,
  actionForCode,
  apiPath,
  bypassesApiBase,
  classifyTransportError,
  createDeduper,
  filenameFromDisposition,
  hasSparkNavigate,
  isBackgroundUrl,
  isSilentRejectUrl,
  lackPointsFrom,
  transportMessage,
} from './error-policy';

const fg = { background: false, sparkNavigate: false };

describe('apiPath', () => {
  it('strips origin, /api prefix and query', () => {
    expect(apiPath('http://x.test/api/auth/isLogin?a=1')).toBe('/auth/isLogin');
    expect(apiPath('/api/notice/v2/list?pageNum=1')).toBe('/notice/v2/list');
    expect(apiPath('notice/bubble')).toBe('/notice/bubble');
    expect(apiPath('/publish-api/publish/article')).toBe('/publish-api/publish/article');
  });
});

describe('isBackgroundUrl', () => {
  it.each([
    '/auth/isLogin',
    '/auth/nowLoginUser',
    '/agent/config',
    '/vip/activity/config',
    '/user/setting/list',
    '/user/event/report?event=open-software',
    '/vip/user/score',
    '/vip/score/point/consume',
    '/topic/v3/track/info',
    '/topic/v3/suggest',
    '/topic/v3/collect',
    '/notice/v2/list?pageNum=1',
    '/mp/task/create',
    '/writing/style/home/v2',
    '/writing/style/homepage/words/v2',
    '/writing/style/homepage/input',
    '/mpTopic/v2/festival?year=2025',
    '/xiaohui/conversation/start',
    '/graphic/task/info',
    '/graphic/recommend/topic',
    '/hot-update/download',
    '/spark/feedback/config/list',
    '/operation/task/progress',
    '/api/auth/nowLoginUser',
  ])('%s is background', (url) => expect(isBackgroundUrl(url)).toBe(true));

  it.each(['/notice/bubble', '/user/change-nickname', '/auth/doLogin0', '/notice/v2/listing', '/topic/v2/track', '/vip/user/info'])('%s is not background', (url) =>
    expect(isBackgroundUrl(url)).toBe(false),
  );
});

describe('bypassesApiBase and sparkNavigate', () => {
  it('publish-api paths skip /api', () => {
    expect(bypassesApiBase('/publish-api/publish/article')).toBe(true);
    expect(bypassesApiBase('/publish/account/list/v3')).toBe(false);
  });
  it('reads sparkNavigate from the address', () => {
    expect(hasSparkNavigate('?a=1&sparkNavigate=1')).toBe(true);
    expect(hasSparkNavigate('?sparkNavigate')).toBe(true);
    expect(hasSparkNavigate('?a=1')).toBe(false);
  });
});

describe('actionForCode', () => {
  it('resolves 0 and passes 10041 through', () => {
    expect(actionForCode(0, '', fg)).toEqual({ kind: 'resolve' });
    expect(actionForCode(10041, 'x', fg)).toEqual({ kind: 'resolve' });
  });
  it('401/430 open the login modal only for foreground calls without sparkNavigate', () => {
    expect(actionForCode(401, '', fg)).toEqual({ kind: 'login', openModal: true });
    expect(actionForCode(430, '', fg)).toEqual({ kind: 'login', openModal: true });
    expect(actionForCode(401, '', { background: true, sparkNavigate: false })).toEqual({ kind: 'login', openModal: false });
    expect(actionForCode(430, '', { background: false, sparkNavigate: true })).toEqual({ kind: 'login', openModal: false });
  });
  it('905/912 and unknown codes show the server msg', () => {
    expect(actionForCode(905, '余额不足', fg)).toEqual({ kind: 'message', level: 'error', text: '余额不足', durationS: 3 });
    expect(actionForCode(912, '已领取', fg)).toMatchObject({ text: '已领取' });
    expect(actionForCode(1001, '昵称至少2个字符', fg)).toMatchObject({ kind: 'message', text: '昵称至少2个字符' });
    expect(actionForCode(1234, '', fg)).toMatchObject({ text: MSG.operationFailed });
  });
  it('933 warns for 3 s with the fixed text', () => {
    expect(actionForCode(933, 'whatever', fg)).toEqual({ kind: 'message', level: 'warning', text: '描述词存在敏感内容', durationS: 3 });
  });
  it('991 is an error notification titled 操作失败 for 5 s', () => {
    expect(actionForCode(991, '图片生成失败', fg)).toEqual({ kind: 'notification', title: '操作失败', description: '图片生成失败', durationS: 5 });
    expect(actionForCode(991, '', fg)).toMatchObject({ description: '暂无图片搜索结果' });
  });
  it('999 shows the server-busy text; 437/507 are silent', () => {
    expect(actionForCode(999, 'stack trace', fg)).toMatchObject({ text: '服务器开小差中，请稍后再试' });
    expect(actionForCode(437, 'x', fg)).toEqual({ kind: 'silent' });
    expect(actionForCode(507, 'x', fg)).toEqual({ kind: 'silent' });
  });
});

describe('transport errors', () => {
  it('classifies axios-style failures', () => {
    expect(classifyTransportError({ code: 'ECONNABORTED', message: 'timeout of 10000ms exceeded' })).toBe('timeout');
    expect(classifyTransportError({ code: 'ETIMEDOUT' })).toBe('timeout');
    expect(classifyTransportError({ code: 'ERR_CANCELED', name: 'CanceledError' })).toBe('cancel');
    expect(classifyTransportError({ code: 'ERR_NETWORK', message: 'Network Error' })).toBe('network');
    expect(classifyTransportError({ code: 'ERR_BAD_RESPONSE', response: { status: 502 } })).toBe('other');
  });
  it('only timeouts and other failures speak', () => {
    expect(transportMessage('timeout')).toBe('请求超时，请稍后再试');
    expect(transportMessage('other')).toBe('服务器开小差中，请稍后再试');
    expect(transportMessage('cancel')).toBeNull();
    expect(transportMessage('network')).toBeNull();
  });
});

describe('createDeduper', () => {
  it('suppresses the same URL within 500 ms', () => {
    const ok = createDeduper(500);
    expect(ok('/api/a?x=1', 1000)).toBe(true);
    expect(ok('/a?x=2', 1499)).toBe(false);
    expect(ok('/b', 1499)).toBe(true);
    expect(ok('/a', 1500)).toBe(true);
  });
});

describe('filenameFromDisposition', () => {
  it('prefers filename*', () => {
    expect(filenameFromDisposition('attachment; filename="a.txt"; filename*=UTF-8\'\'%E6%96%87%E7%AB%A0.docx')).toBe('文章.docx');
    expect(filenameFromDisposition('attachment; filename="report.pdf"')).toBe('report.pdf');
    expect(filenameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe('lacking points (1501)', () => {
  it('opens the lackPoints prompt instead of a toast, for foreground and background calls alike', () => {
    expect(actionForCode(1501, '积分不足', fg)).toEqual({ kind: 'lackPoints' });
    expect(actionForCode(1501, '积分不足', { background: true, sparkNavigate: true })).toEqual({ kind: 'lackPoints' });
  });

  it('leaves the neighbouring codes to the default rule', () => {
    expect(actionForCode(1502, '订单已过期，请重新下单', fg)).toEqual({ kind: 'message', level: 'error', text: '订单已过期，请重新下单', durationS: 3 });
  });

  it('reads the reply data defensively', () => {
    expect(lackPointsFrom({ iDataEventId: 'article', balance: 3, need: 10 })).toEqual({ iDataEventId: 'article', balance: 3, need: 10 });
    expect(lackPointsFrom({ iDataEventId: 42 })).toEqual({ iDataEventId: '42', balance: null, need: null });
    expect(lackPointsFrom(null)).toEqual({ iDataEventId: null, balance: null, need: null });
    expect(lackPointsFrom({ iDataEventId: '', balance: 'x' })).toEqual({ iDataEventId: null, balance: null, need: null });
  });
});

describe('isSilentRejectUrl', () => {
  it.each(['/publish/v4/account/bind', '/api/publish/v4/account/bind', 'http://h/api/publish/v4/account/bind?x=1'])('%s is silent', (url) =>
    expect(isSilentRejectUrl(url)).toBe(true),
  );
  it.each(['/publish/account/unbind', '/publish/v4/account/bind/x', '/publish-api/chrome/login/connect'])('%s is not', (url) => expect(isSilentRejectUrl(url)).toBe(false));
});
