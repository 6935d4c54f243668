import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type AdminAuditEntry, type AdminLexiconWord, type AdminModel, type ModelItem, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';

interface ModelList {
  records: AdminModel[];
  defaultId: string;
  defaultFromConfig: boolean;
  reloadSeconds: number;
}
interface TestResult {
  ok: boolean;
  latencyMs: number;
  reply: string;
  error: string | null;
}
type WordPage = Page<AdminLexiconWord> & { bundledCount: number; addedCount: number };

describeOnDatabases('console models and sensitive words on %s', (db) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  let op: TestAdmin;
  let writer: Awaited<ReturnType<typeof loginByPhone>>;

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    t = await startTestApp({
      db,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'cfg', label: '配置模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
        LLM_RETRY_BASE_MS: '1',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    op = await loginAdmin(t, 'operator');
    writer = await loginByPhone(t);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  const models = async () => (await t.call<ModelList>('GET', '/admin/models', { token: op.token })).data;
  const writerModels = async () => (await t.call<ModelItem[]>('GET', '/writing/model/list', { token: writer.tokenValue })).data;
  const body = (over: Partial<Record<string, unknown>> = {}) => ({
    id: 'deepseek-x',
    label: '深度模型',
    baseUrl: standin.baseURL,
    model: 'standin-chat',
    apiKey: standin.apiKey,
    ...over,
  });
  const auditOf = async (action: string, targetId: string) =>
    (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action, targetId } })).data.records;

  it('an operator adds a model: writers see it at once, the key is never shown or audited, and 连接测试 reaches the vendor', async () => {
    const made = await t.call<AdminModel>('POST', '/admin/models/create', { token: op.token, body: body({ pointsFeature: 'deep_write', capabilities: ['article'] }) });
    expect(made.code, made.msg).toBe(0);
    expect(made.data).toMatchObject({
      id: 'deepseek-x',
      label: '深度模型',
      source: 'admin',
      enabled: true,
      isDefault: false,
      pointsFeature: 'deep_write',
      capabilities: ['article'],
    });
    expect(made.data.apiKey).toBe(`sk-…${standin.apiKey.slice(-4)}`);

    const list = await models();
    expect(list.records.map((m) => [m.id, m.source])).toEqual([
      ['cfg', 'config'],
      ['deepseek-x', 'admin'],
    ]);
    expect(list.defaultId).toBe('cfg');
    expect(JSON.stringify(list)).not.toContain(standin.apiKey);
    expect((await writerModels()).map((m) => m.id)).toEqual(['cfg', 'deepseek-x', 'offline']);

    const [entry] = await auditOf('model.create', 'deepseek-x');
    expect(entry).toMatchObject({ actorId: op.userId, targetType: 'llm_model', after: expect.objectContaining({ apiKey: '已设置', model: 'standin-chat' }) });
    expect(JSON.stringify(entry)).not.toContain(standin.apiKey);

    const before = standin.received.length;
    const test = await t.call<TestResult>('POST', '/admin/models/test', { token: op.token, body: { id: 'deepseek-x' } });
    expect(test.code, test.msg).toBe(0);
    expect(test.data).toMatchObject({ ok: true, error: null });
    expect(test.data.reply).toContain('这是来自模拟模型的回答');
    expect(test.data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(standin.received.length).toBe(before + 1);
    expect(standin.received.at(-1)!.model).toBe('standin-chat');
  });

  it('an edit without a key keeps the stored one; a new key is audited as 已更改; the vendor error text reaches 连接测试', async () => {
    const kept = await t.call<AdminModel>('POST', '/admin/models/update', { token: op.token, body: body({ label: '深度模型二', apiKey: '' }) });
    expect(kept.code, kept.msg).toBe(0);
    expect(kept.data.label).toBe('深度模型二');
    expect((await t.call<TestResult>('POST', '/admin/models/test', { token: op.token, body: { id: 'deepseek-x' } })).data.ok).toBe(true);
    const [keptEntry] = await auditOf('model.update', 'deepseek-x');
    expect(keptEntry).toMatchObject({
      before: expect.objectContaining({ label: '深度模型', apiKey: '已设置' }),
      after: expect.objectContaining({ label: '深度模型二', apiKey: '已设置' }),
    });

    const wrongKey = 'sk-wrong-key-0000-9876';
    const changed = await t.call<AdminModel>('POST', '/admin/models/update', { token: op.token, body: body({ label: '深度模型二', apiKey: wrongKey }) });
    expect(changed.data.apiKey).toBe('sk-…9876');
    const bad = await t.call<TestResult>('POST', '/admin/models/test', { token: op.token, body: { id: 'deepseek-x' } });
    expect(bad.data.ok).toBe(false);
    expect(bad.data.error).toContain('Incorrect API key provided');
    const [changedEntry] = await auditOf('model.update', 'deepseek-x');
    expect(changedEntry!.after).toMatchObject({ apiKey: '已更改' });
    expect(JSON.stringify(await auditOf('model.update', 'deepseek-x'))).not.toContain(wrongKey);

    // A wrong model name: the vendor's 404 text.
    await t.call('POST', '/admin/models/update', { token: op.token, body: body({ label: '深度模型二', model: 'no-such-model' }) });
    const missing = await t.call<TestResult>('POST', '/admin/models/test', { token: op.token, body: { id: 'deepseek-x' } });
    expect(missing.data).toMatchObject({ ok: false });
    expect(missing.data.error).toContain('does not exist');
    await t.call('POST', '/admin/models/update', { token: op.token, body: body({ label: '深度模型二' }) });
  });

  it('off hides a model from writers at once; 默认 makes it the writers’ default, one default at a time', async () => {
    const off = await t.call<AdminModel>('POST', '/admin/models/update', { token: op.token, body: body({ enabled: false }) });
    expect(off.data.enabled).toBe(false);
    expect((await writerModels()).map((m) => m.id)).toEqual(['cfg', 'offline']);
    expect(
      (await t.call('POST', '/mp/task/create', { token: writer.tokenValue, body: { createType: 'article', content: '写一篇骑行文章', modelConfigType: 'deepseek-x' } })).code,
    ).toBe(ErrorCode.MODEL_UNAVAILABLE);

    await t.call('POST', '/admin/models/update', { token: op.token, body: body({ enabled: true, isDefault: true }) });
    expect((await writerModels()).find((m) => m.isDefault)?.id).toBe('deepseek-x');
    expect((await models()).defaultId).toBe('deepseek-x');

    const second = await t.call<AdminModel>('POST', '/admin/models/create', { token: op.token, body: body({ id: 'qwen-y', label: '千问', isDefault: true, sort: 5 }) });
    expect(second.code, second.msg).toBe(0);
    const list = await models();
    expect(list.records.filter((m) => m.isDefault).map((m) => m.id)).toEqual(['qwen-y']);
    expect((await writerModels()).find((m) => m.isDefault)?.id).toBe('qwen-y');
  });

  it('refuses: config models, the offline id, duplicates, unknown ids, a new model without key, bad fields', async () => {
    expect((await t.call('POST', '/admin/models/update', { token: op.token, body: body({ id: 'cfg' }) })).code).toBe(ErrorCode.CONFLICT);
    expect((await t.call('POST', '/admin/models/create', { token: op.token, body: body({ id: 'cfg' }) })).code).toBe(ErrorCode.CONFLICT);
    expect((await t.call('POST', '/admin/models/create', { token: op.token, body: body({ id: 'offline' }) })).code).toBe(ErrorCode.CONFLICT);
    expect((await t.call('POST', '/admin/models/create', { token: op.token, body: body() })).code).toBe(ErrorCode.CONFLICT);
    expect((await t.call('POST', '/admin/models/update', { token: op.token, body: body({ id: 'nope' }) })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/admin/models/test', { token: op.token, body: { id: 'nope' } })).code).toBe(ErrorCode.NOT_FOUND);
    const noKey = await t.call('POST', '/admin/models/create', { token: op.token, body: body({ id: 'fresh', apiKey: '' }) });
    expect(noKey.code).toBe(ErrorCode.VALIDATION);
    expect(noKey.msg).toContain('API Key');
    const badUrl = await t.call('POST', '/admin/models/create', { token: op.token, body: body({ id: 'fresh', baseUrl: 'ftp://x' }) });
    expect(badUrl.code).toBe(ErrorCode.VALIDATION);
    expect(badUrl.msg).toContain('baseUrl');
    expect((await models()).records.some((m) => m.id === 'fresh')).toBe(false);
  });

  it('a viewer and support read the models and words but change nothing', async () => {
    for (const role of ['viewer', 'support'] as const) {
      const a = await loginAdmin(t, role);
      const list = await t.call<ModelList>('GET', '/admin/models', { token: a.token });
      expect(list.code).toBe(0);
      expect(JSON.stringify(list.data)).not.toContain(standin.apiKey);
      expect((await t.call('GET', '/admin/lexicon', { token: a.token })).code).toBe(0);
      expect((await t.call('POST', '/admin/models/update', { token: a.token, body: body() })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
      expect((await t.call('POST', '/admin/models/test', { token: a.token, body: { id: 'deepseek-x' } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
      expect((await t.call('POST', '/admin/lexicon/add', { token: a.token, body: { word: '某词' } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    }
  });

  it('shows the feature flag payload the server serves, read-only', async () => {
    const viewer = await loginAdmin(t, 'viewer');
    const flags = await t.call<{ file: string | null; payload: { features: Record<string, unknown> } }>('GET', '/admin/flags', { token: viewer.token });
    expect(flags.code, flags.msg).toBe(0);
    expect(flags.data.file).toBeNull();
    const served = (await (await fetch(`${t.url}/api/features`)).json()) as { features: Record<string, unknown> };
    expect(flags.data.payload.features).toEqual(served.features);
    expect(Object.keys(flags.data.payload.features).length).toBeGreaterThan(0);
  });

  it('a word an operator adds refuses writing tasks at once (933); removed, the same prompt passes; bundled words stay', async () => {
    const word = `后台禁词${Math.floor(Math.random() * 1e6)}`;
    const task = () => t.call('POST', '/mp/task/create', { token: writer.tokenValue, body: { createType: 'article', content: `介绍一下${word}`, modelConfigType: 'offline' } });
    // Warm the matcher first, so the add must drop it for the 933 to appear.
    expect((await task()).code).toBe(0);

    const added = await t.call<AdminLexiconWord>('POST', '/admin/lexicon/add', { token: op.token, body: { word: ` ${word} ` } });
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ word, source: 'added' });
    expect((await task()).code).toBe(ErrorCode.SENSITIVE_CONTENT);
    expect((await t.call('POST', '/admin/lexicon/add', { token: op.token, body: { word } })).code).toBe(ErrorCode.CONFLICT);

    const found = await t.call<WordPage>('GET', '/admin/lexicon', { token: op.token, query: { q: word.slice(0, 4), source: 'added' } });
    expect(found.data.records).toEqual([expect.objectContaining({ word, source: 'added' })]);
    expect(found.data.addedCount).toBeGreaterThanOrEqual(1);
    expect(found.data.bundledCount).toBeGreaterThan(0);

    const removed = await t.call('POST', '/admin/lexicon/remove', { token: op.token, body: { word } });
    expect(removed.code, removed.msg).toBe(0);
    expect((await task()).code).toBe(0);
    expect((await t.call('POST', '/admin/lexicon/remove', { token: op.token, body: { word } })).code).toBe(ErrorCode.NOT_FOUND);

    const audit = (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { targetId: word } })).data.records;
    expect(audit.map((e) => e.action)).toEqual(['lexicon.remove', 'lexicon.add']);
    expect(audit[0]).toMatchObject({ targetType: 'sensitive_word', after: { word, enabled: false } });

    // A bundled word is listed as such and cannot be removed here.
    const bundled = await t.call<WordPage>('GET', '/admin/lexicon', { token: op.token, query: { source: 'bundled', pageSize: 1 } });
    const first = bundled.data.records[0]!;
    expect(first.source).toBe('bundled');
    expect(bundled.data.total).toBe(bundled.data.bundledCount);
    const refused = await t.call('POST', '/admin/lexicon/remove', { token: op.token, body: { word: first.word } });
    expect(refused.code).toBe(ErrorCode.CONFLICT);
    expect(refused.msg).toContain('内置词');
    await t.container.jobs.idle();
  });
});
