import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, homeAbilities, type HomeAbilityItem, type SensitiveContentData, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';

async function waitForTask(t: TestApp, token: string, taskId: string): Promise<TaskInfo> {
  await t.container.jobs.idle();
  for (let i = 0; i < 200; i++) {
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
    if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
    await new Promise((r) => setTimeout(r, 50));
    await t.container.jobs.idle();
  }
  throw new Error('task did not finish');
}

/** The home input's ability types: served by the server, carried by a task into the model's instructions. */
describeOnDatabases('home ability types and the 933 data on %s', (dbKind) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  let token: string;

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    t = await startTestApp({
      db: dbKind,
      env: { LLM_MODELS: JSON.stringify([{ id: 'm', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]) },
    });
    const user = await loginByPhone(t);
    token = user.tokenValue;
    await t.container.services.points.grant(user.user.id, 10_000, { reason: 'test', idempotencyKey: `test:${user.user.id}` });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  it('lists the ability types, before login too, without the model instructions', async () => {
    const res = await t.call<HomeAbilityItem[]>('GET', '/writing/ability/types');
    expect(res.code).toBe(0);
    expect(res.data.map((a) => a.id)).toEqual(homeAbilities.map((a) => a.id));
    expect(res.data.find((a) => a.id === 'xhs_note')).toEqual({ id: 'xhs_note', label: '小红书笔记', description: '口语化、分点、带话题标签' });
  });

  it("the chosen ability type's instruction reaches the model; none adds nothing", async () => {
    const xhs = homeAbilities.find((a) => a.id === 'xhs_note')!.instruction;
    const before = standin.received.length;
    const styled = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token,
      body: { createType: 'article', writeType: 'quick', content: '周末露营装备清单', abilityType: 'xhs_note' },
    });
    expect(styled.code).toBe(0);
    expect((await waitForTask(t, token, styled.data.taskId)).status).toBe('succeeded');
    const styledSystem = standin.received.slice(before).map((b) => b.messages.find((m) => m.role === 'system')?.content ?? '');
    expect(styledSystem.some((s) => s.includes(xhs))).toBe(true);

    const mid = standin.received.length;
    const plain = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token, body: { createType: 'article', writeType: 'quick', content: '周末露营装备清单' } });
    expect((await waitForTask(t, token, plain.data.taskId)).status).toBe('succeeded');
    const plainSystem = standin.received.slice(mid).map((b) => b.messages.find((m) => m.role === 'system')?.content ?? '');
    expect(plainSystem.length).toBeGreaterThan(0);
    expect(plainSystem.some((s) => homeAbilities.some((a) => a.instruction && s.includes(a.instruction)))).toBe(false);
  });

  it('refuses an unknown ability type naming the field', async () => {
    const res = await t.call('POST', '/mp/task/create', { token, body: { createType: 'article', content: '随便写写', abilityType: 'poem' } });
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.msg).toContain('abilityType');
  });

  it('933 carries the words found, where, and a suggestion for each', async () => {
    const res = await t.call<SensitiveContentData>('POST', '/mp/task/create', { token, body: { createType: 'article', content: '帮我写一篇 网络 赌博 推广文案' } });
    expect(res.code).toBe(ErrorCode.SENSITIVE_CONTENT);
    expect(res.msg).toBe('描述词存在敏感内容');
    expect(res.data.where).toBe('写作内容');
    expect(res.data.words.length).toBeGreaterThan(0);
    expect(res.data.suggestions).toHaveLength(res.data.words.length);
    expect(res.data.suggestions[0]).toContain(res.data.words[0]);
  });
});
