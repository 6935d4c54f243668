import { ErrorCode, type AdminLexiconWord, type AdminModel } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import { OFFLINE_MODEL_ID } from '../../integrations/llm/index.js';
import { DB_CACHE_MS, type LlmRegistry, type ModelRowInput } from '../llm/llm-registry.js';
import type { LlmModelRow } from '../llm/llm-models.repo.js';
import type { SensitiveLexicon } from '../lexicon/lexicon.service.js';
import { normalise } from '../lexicon/lexicon.service.js';
import type { AdminActor, AuditService } from './audit.service.js';

type ModelInput = Omit<ModelRowInput, 'pointsFeature'> & { pointsFeature?: string | undefined };

const TEST_TIMEOUT_MS = 20_000;
const TEST_PROMPT = '连接测试：请只回复“好”。';

/** What the audit log keeps of a model: every field but the key, which is only ever 已设置 / 已更改. */
const audited = (m: Pick<LlmModelRow, 'label' | 'baseUrl' | 'model' | 'pointsFeature' | 'capabilities' | 'enabled' | 'isDefault' | 'sort'>) => ({
  label: m.label,
  baseUrl: m.baseUrl,
  model: m.model,
  pointsFeature: m.pointsFeature,
  capabilities: m.capabilities,
  enabled: m.enabled,
  isDefault: m.isDefault,
  sort: m.sort,
});

/**
 * 模型与来源: the model configurations writers choose from (the llm area's registry) and the sensitive words (the
 * lexicon area). Keys are write-only: the console sees `sk-…abcd` at most, the audit log only 已设置 / 已更改.
 * Each write and its audit entry commit together; then this process's registry or matcher reloads at once and the
 * others through the cache bus.
 */
export class AdminModelsService {
  constructor(
    private readonly db: Db,
    private readonly llms: LlmRegistry,
    private readonly lexicon: SensitiveLexicon,
    private readonly audit: AuditService,
  ) {}

  private toModel(r: LlmModelRow): AdminModel {
    return {
      id: r.id,
      label: r.label,
      baseUrl: r.baseUrl,
      model: r.model,
      apiKey: this.llms.keyHint(r),
      pointsFeature: r.pointsFeature,
      capabilities: r.capabilities,
      enabled: r.enabled,
      isDefault: r.isDefault,
      sort: r.sort,
      source: 'admin',
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  async list() {
    const fromConfig: AdminModel[] = this.llms.configured.map((m) => ({
      id: m.id,
      label: m.label,
      baseUrl: m.baseURL,
      model: m.model,
      apiKey: this.llms.keyHint({ apiKey: m.apiKey }),
      pointsFeature: m.pointsFeature ?? null,
      capabilities: m.capabilities,
      enabled: true,
      isDefault: false,
      sort: 0,
      source: 'config',
      updatedAt: null,
    }));
    const rows = (await this.llms.rows()).filter((r) => !fromConfig.some((c) => c.id === r.id));
    return {
      records: [...fromConfig, ...rows.map((r) => this.toModel(r))],
      defaultId: await this.llms.defaultId(),
      defaultFromConfig: this.llms.defaultFromConfig,
      reloadSeconds: DB_CACHE_MS / 1000,
    };
  }

  private async row(id: string): Promise<LlmModelRow | null> {
    return (await this.llms.rows()).find((r) => r.id === id) ?? null;
  }

  async create(actor: AdminActor, input: ModelInput): Promise<AdminModel> {
    if (input.id === OFFLINE_MODEL_ID || this.llms.configured.some((c) => c.id === input.id))
      throw appError(ErrorCode.CONFLICT, `模型 ${input.id} 已由服务器配置提供，不能在后台添加`);
    if (!input.apiKey) throw appError(ErrorCode.VALIDATION, '新模型需要填写 API Key apiKey');
    const values = { ...input, pointsFeature: input.pointsFeature ?? null };
    const saved = await this.db.transaction(async (tx) => {
      if ((await this.llms.rows(tx)).some((r) => r.id === input.id)) throw appError(ErrorCode.CONFLICT, `模型 ${input.id} 已存在`);
      await this.llms.save(tx, values, null);
      await this.audit.record(tx, actor, { action: 'model.create', targetType: 'llm_model', targetId: input.id, after: { ...audited(values), apiKey: '已设置' } });
      return (await this.llms.rows(tx)).find((r) => r.id === input.id)!;
    });
    this.llms.changed();
    return this.toModel(saved);
  }

  /** Without apiKey the stored key stays; with one, the audit says 已更改 (never the key). */
  async update(actor: AdminActor, input: ModelInput): Promise<AdminModel> {
    if (this.llms.configured.some((c) => c.id === input.id)) throw appError(ErrorCode.CONFLICT, `模型 ${input.id} 由服务器配置（LLM_MODELS）提供，不能在后台修改`);
    const values = { ...input, pointsFeature: input.pointsFeature ?? null };
    const saved = await this.db.transaction(async (tx) => {
      const before = (await this.llms.rows(tx)).find((r) => r.id === input.id);
      if (!before) throw appError(ErrorCode.NOT_FOUND, `模型 ${input.id} 不存在`);
      await this.llms.save(tx, values, before);
      await this.audit.record(tx, actor, {
        action: 'model.update',
        targetType: 'llm_model',
        targetId: input.id,
        before: { ...audited(before), apiKey: '已设置' },
        after: { ...audited(values), apiKey: input.apiKey ? '已更改' : '已设置' },
      });
      return (await this.llms.rows(tx)).find((r) => r.id === input.id)!;
    });
    this.llms.changed();
    return this.toModel(saved);
  }

  /** 连接测试: one tiny request through the real adapter, with the model's own settings (enabled or not). */
  async test(id: string) {
    const client = await this.llms.testClient(id);
    if (!client) throw appError(ErrorCode.NOT_FOUND, `模型 ${id} 不存在`);
    const started = Date.now();
    let reply = '';
    try {
      for await (const c of client.stream({ messages: [{ role: 'user', content: TEST_PROMPT }], maxTokens: 16, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) })) {
        if (c.type === 'text') reply += c.text;
      }
      return { ok: true, latencyMs: Date.now() - started, reply: reply.slice(0, 200), error: null };
    } catch (err) {
      return { ok: false, latencyMs: Date.now() - started, reply: '', error: err instanceof Error ? err.message : String(err) };
    }
  }

  // ---- sensitive words ----

  async words(f: { q?: string | undefined; source: 'all' | 'bundled' | 'added' }, pageNum: number, pageSize: number) {
    const added = await this.lexicon.addedWords();
    const bundled = this.lexicon.bundled();
    const all: AdminLexiconWord[] = [
      ...(f.source === 'bundled' ? [] : added.map((a) => ({ word: a.word, source: 'added' as const, createdAt: a.createdAt.toISOString() }))),
      ...(f.source === 'added' ? [] : bundled.map((word) => ({ word, source: 'bundled' as const, createdAt: null }))),
    ];
    const q = f.q ? normalise(f.q) : '';
    const hits = q ? all.filter((w) => normalise(w.word).includes(q)) : all;
    return {
      records: hits.slice((pageNum - 1) * pageSize, pageNum * pageSize),
      total: hits.length,
      pageNum,
      pageSize,
      bundledCount: bundled.length,
      addedCount: added.length,
    };
  }

  async addWord(actor: AdminActor, word: string): Promise<AdminLexiconWord> {
    if (!normalise(word)) throw appError(ErrorCode.VALIDATION, '词语 word 不能只有空格或符号');
    const added = await this.db.transaction(async (tx) => {
      if ((await this.lexicon.addedWords(tx)).some((a) => a.word === word)) throw appError(ErrorCode.CONFLICT, `「${word}」已在词库中`);
      await this.lexicon.addIn(tx, word);
      await this.audit.record(tx, actor, { action: 'lexicon.add', targetType: 'sensitive_word', targetId: word, after: { word, enabled: true } });
      return (await this.lexicon.addedWords(tx)).find((a) => a.word === word)!;
    });
    this.lexicon.changed();
    return { word, source: 'added', createdAt: added.createdAt.toISOString() };
  }

  /** Only words operators added; the bundled lists are files in the repository. */
  async removeWord(actor: AdminActor, word: string): Promise<AdminLexiconWord> {
    await this.db.transaction(async (tx) => {
      if (!(await this.lexicon.addedWords(tx)).some((a) => a.word === word)) {
        if (this.lexicon.bundled().includes(word)) throw appError(ErrorCode.CONFLICT, `「${word}」是内置词，不能在后台删除`);
        throw appError(ErrorCode.NOT_FOUND, `词库中没有后台添加的「${word}」`);
      }
      await this.lexicon.removeIn(tx, word);
      await this.audit.record(tx, actor, {
        action: 'lexicon.remove',
        targetType: 'sensitive_word',
        targetId: word,
        before: { word, enabled: true },
        after: { word, enabled: false },
      });
    });
    this.lexicon.changed();
    return { word, source: 'added', createdAt: null };
  }
}
