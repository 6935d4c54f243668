import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { startSearchStandin, type SearchStandin } from '../../test/standins/web-search.js';

/** Three queries are planned; the first is answered 500 and the other two still run. */
const SEARCHES_AFTER_ONE_FAILURE = 2;

describe('deep writing with online search (Bocha stand-in)', () => {
  let t: TestApp;
  let llm: OpenAiStandin;
  let search: SearchStandin;
  let token: string;

  beforeAll(async () => {
    llm = await startOpenAiStandin();
    search = await startSearchStandin();
    llm.respond = (body) => {
      const user = body.messages.at(-1)!.content;
      if (user.includes('只输出一个JSON对象'))
        return { content: '{"title":"骑行通勤","outline":[{"heading":"好处","points":[]}],"queries":["骑行 健康","骑行 省钱","自行车道","多余的第四个"]}' };
      if (user.includes('审阅下面的文章')) return { content: '结构清晰。' };
      if (user.includes('根据审阅意见修改文章')) return { content: user.slice(user.indexOf('原文：\n') + 4) };
      return { content: '研究显示骑行有益健康[1]。' };
    };
    t = await startTestApp({
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'm', label: 'M', baseURL: llm.baseURL, apiKey: llm.apiKey, model: 'x' }]),
        SEARCH_PROVIDER: 'bocha',
        BOCHA_API_KEY: search.apiKey,
        BOCHA_API_BASE: search.url,
      },
    });
    const u = await loginByPhone(t);
    token = u.tokenValue;
    await t.container.services.points.grant(u.user.id, 100, { reason: 'test', idempotencyKey: `t:${u.user.id}` });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await search?.close();
  });

  it('reports search as enabled, searches at most 3 queries, cites sources and lists them', async () => {
    expect((await t.call('GET', '/writing/search/status', { token })).data).toEqual({ enabled: true, provider: 'bocha', reason: null });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token, body: { createType: 'article', content: '写一篇骑行通勤的文章', onlineSearch: true } });
    expect(created.code).toBe(0);
    const res = await fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token } });
    const raw = await res.text();
    expect(raw).toContain('event: sources');
    expect(raw).toContain('event: done');
    expect(search.received.map((r) => r.query)).toEqual(['骑行 健康', '骑行 省钱', '自行车道']);
    const info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId: created.data.taskId } })).data;
    expect(info.status).toBe('succeeded');
    expect(info.text).toContain('[1]');
    expect(info.text).toContain('## 参考资料');
    expect(info.text).toContain('https://news.example.cn/');
    // The section prompt carried the numbered sources.
    expect(llm.received.some((r) => r.messages.at(-1)!.content.includes('[1] 骑行 健康：权威解读'))).toBe(true);
  });

  it('a failing search vendor does not fail the task', async () => {
    const before = search.received.length;
    search.failNext(500);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token, body: { createType: 'article', content: '写一篇骑行通勤的文章', onlineSearch: true } });
    await t.container.jobs.idle();
    const info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId: created.data.taskId } })).data;
    // The vendor was asked and its 500 swallowed: the article is written from what the other searches returned.
    expect(info.errorCode).not.toBe(ErrorCode.SEARCH_NOT_CONFIGURED);
    expect(info.status).toBe('succeeded');
    expect(info.text).toContain('研究显示骑行有益健康');
    expect(search.received.length - before).toBe(SEARCHES_AFTER_ONE_FAILURE);
  });
});
