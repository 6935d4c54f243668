import { ErrorCode, type GeneratedBy } from '@inkstone/shared';
import type { Config, LlmModelConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { LlmModelsRepo, type LlmModelRow } from './llm-models.repo.js';
import { appError } from '../../http/errors.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import { createLlmClient, ModelThread, OFFLINE_MODEL_ID, OfflineWriter, type LlmClient } from '../../integrations/llm/index.js';
import { ModelSlots, withSlots } from '../../integrations/llm/limited.js';

export interface ModelEntry {
  id: string;
  label: string;
  isAi: boolean;
  capabilities: string[];
  pointsFeature: string | null;
  source: 'offline' | 'config' | 'admin';
  client: LlmClient;
}

/** How long another process may serve a model list that is older than a console change (this process reloads at once). */
export const DB_CACHE_MS = 30_000;
const BUS_TOPIC = 'llm-models';

/** A console write of an admin-added model: without apiKey the stored key is kept. */
export interface ModelRowInput {
  id: string;
  label: string;
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  pointsFeature: string | null;
  capabilities: string[];
  enabled: boolean;
  isDefault: boolean;
  sort: number;
}

/** Who wrote a text, from its model id (the offline writer's id is fixed): shown beside the text, never in it. */
export const generatedBy = (modelId: string): GeneratedBy => (modelId === OFFLINE_MODEL_ID ? 'offline' : 'ai');

/**
 * Module logic over the llm integration (it reads the database and throws the user-facing MODEL_UNAVAILABLE), so it
 * lives here rather than in integrations/llm. The model picker's source: the offline writer (always), models from LLM_MODELS, and models added with the
 * admin CLI or the console (API keys encrypted at rest). Admin-added models are re-read at once after a change in this
 * process, through the cache bus in the others, and at most every 30 s anyway.
 */
export class LlmRegistry {
  private readonly offline: ModelEntry;
  private readonly fromConfig: ModelEntry[];
  private dbModels: ModelEntry[] = [];
  /** The admin-added model marked default (enabled), if any. */
  private dbDefault: string | null = null;
  private loadedAt = 0;
  /** Bumped by every change: a read started before one must not be taken as current. */
  private epoch = 0;
  /** The read under way and the epoch it started in: concurrent callers share it (200 task creates, one query). */
  private loading: { epoch: number; models: Promise<ModelEntry[]> } | null = null;
  /** Per model id, kept across re-reads of the admin-added models so a reload does not reset who holds a slot. */
  private readonly slots = new Map<string, ModelSlots>();
  private readonly repo: LlmModelsRepo;
  /** Where the models' streams are read (LLM_THREAD); started by the first stream. */
  private readonly thread: ModelThread | undefined;

  constructor(
    db: Db,
    private readonly key: Buffer,
    private readonly config: Pick<Config, 'LLM_MODELS' | 'LLM_DEFAULT_MODEL' | 'LLM_TIMEOUT_MS' | 'LLM_MAX_RETRIES' | 'LLM_RETRY_BASE_MS' | 'LLM_MAX_CONCURRENT' | 'LLM_THREAD'>,
    private readonly bus?: InvalidationBus,
  ) {
    this.thread = config.LLM_THREAD ? new ModelThread() : undefined;
    // A console change in any process: the next read here goes to the database.
    bus?.subscribe(BUS_TOPIC, () => this.forget());
    bus?.onReset(() => this.forget());
    const w = new OfflineWriter();
    this.offline = { id: w.id, label: w.label, isAi: false, capabilities: ['article', 'ability', 'title'], pointsFeature: null, source: 'offline', client: w };
    this.fromConfig = config.LLM_MODELS.map((m) => this.entry(m, 'config'));
    this.repo = new LlmModelsRepo(db);
  }

  private entry(m: LlmModelConfig, source: 'config' | 'admin'): ModelEntry {
    const limit = m.maxConcurrent ?? this.config.LLM_MAX_CONCURRENT;
    let slots = this.slots.get(m.id);
    if (slots) slots.concurrency = limit;
    else this.slots.set(m.id, (slots = new ModelSlots(limit)));
    // Writing runs many tasks at once; the model's own limit is what bounds its calls.
    const client = withSlots(createLlmClient(m, this.config, this.thread), slots);
    return {
      id: m.id,
      label: m.label,
      isAi: true,
      capabilities: m.capabilities.length ? m.capabilities : ['article', 'ability', 'title'],
      pointsFeature: m.pointsFeature ?? null,
      source,
      client,
    };
  }

  /** True when no real model is configured: everything runs on the offline writer. */
  get offlineOnly(): boolean {
    return this.fromConfig.length === 0 && this.dbModels.length === 0;
  }

  private forget() {
    this.loadedAt = 0;
    this.epoch += 1;
  }

  /** `force`: a read that starts now or has started since the last change, even when the cached list is fresh. */
  private async fromDb(force = false): Promise<ModelEntry[]> {
    if (!force && Date.now() - this.loadedAt <= DB_CACHE_MS) return this.dbModels;
    if (this.loading?.epoch !== this.epoch) {
      const loading = { epoch: this.epoch, models: this.load(this.epoch) };
      this.loading = loading;
      void loading.models
        .catch(() => undefined)
        .finally(() => {
          if (this.loading === loading) this.loading = null;
        });
    }
    return this.loading.models;
  }

  private async load(epoch: number): Promise<ModelEntry[]> {
    const rows = (await this.repo.list()).filter((r) => r.enabled && !this.fromConfig.some((c) => c.id === r.id));
    const models = rows.map((r) =>
      this.entry(
        {
          id: r.id,
          label: r.label,
          baseURL: r.baseUrl,
          model: r.model,
          apiKey: decryptSecret(this.key, r.apiKeyEnc),
          pointsFeature: r.pointsFeature ?? undefined,
          capabilities: r.capabilities,
        },
        'admin',
      ),
    );
    // A change while reading: answer what was read, but keep it only if nothing newer was kept meanwhile.
    if (epoch === this.epoch) {
      this.dbDefault = rows.find((r) => r.isDefault)?.id ?? null;
      this.dbModels = models;
      this.loadedAt = Date.now();
    }
    return models;
  }

  async list(): Promise<ModelEntry[]> {
    return [...this.fromConfig, ...(await this.fromDb()), this.offline];
  }

  async defaultId(): Promise<string> {
    if (this.config.LLM_DEFAULT_MODEL) return this.config.LLM_DEFAULT_MODEL;
    const list = await this.list();
    return this.dbDefault ?? list[0]!.id;
  }

  /** The chosen model, or the default when none was chosen; an unknown id is the user's error. */
  async get(id: string | null | undefined): Promise<ModelEntry> {
    const wanted = id || (await this.defaultId());
    if (wanted === OFFLINE_MODEL_ID) return this.offline;
    const found = (await this.list()).find((m) => m.id === wanted) ?? (await this.fromDb(true)).find((m) => m.id === wanted);
    if (!found) throw appError(ErrorCode.MODEL_UNAVAILABLE);
    return found;
  }

  async add(m: LlmModelConfig & { sort?: number }): Promise<void> {
    if (m.id === OFFLINE_MODEL_ID || this.fromConfig.some((c) => c.id === m.id)) throw new Error(`模型 ${m.id} 已由配置提供`);
    await this.repo.upsert({
      id: m.id,
      label: m.label,
      baseUrl: m.baseURL,
      model: m.model,
      apiKeyEnc: encryptSecret(this.key, m.apiKey),
      pointsFeature: m.pointsFeature ?? null,
      capabilities: m.capabilities,
      sort: m.sort ?? 0,
    });
    this.changed();
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.repo.remove(id);
    this.changed();
    return removed;
  }

  // ---- the console (模型与来源) ----

  /** The models LLM_MODELS provides (read-only in the console). */
  get configured(): readonly LlmModelConfig[] {
    return this.config.LLM_MODELS;
  }

  /** True when LLM_DEFAULT_MODEL fixes the default. */
  get defaultFromConfig(): boolean {
    return Boolean(this.config.LLM_DEFAULT_MODEL);
  }

  /** Every admin-added row, enabled or not, keys still encrypted. */
  rows(db?: DbOrTx): Promise<LlmModelRow[]> {
    return (db ? new LlmModelsRepo(db) : this.repo).list();
  }

  /** `sk-…abcd`: the key's last 4 characters at most (a key of 8 or fewer shows none of it). */
  keyHint(row: Pick<LlmModelRow, 'apiKeyEnc'> | { apiKey: string }): string {
    const key = 'apiKey' in row ? row.apiKey : decryptSecret(this.key, row.apiKeyEnc);
    return key.length > 8 ? `${key.startsWith('sk-') ? 'sk-' : ''}…${key.slice(-4)}` : '已设置';
  }

  /** Inserts or updates an admin-added row inside the caller's transaction; call `changed()` once it has committed. */
  async save(tx: DbOrTx, m: ModelRowInput, existing: LlmModelRow | null): Promise<void> {
    if (m.id === OFFLINE_MODEL_ID || this.fromConfig.some((c) => c.id === m.id)) throw new Error(`模型 ${m.id} 已由配置提供`);
    const apiKeyEnc = m.apiKey ? encryptSecret(this.key, m.apiKey) : existing?.apiKeyEnc;
    if (!apiKeyEnc) throw new Error('新模型需要 API Key');
    const repo = new LlmModelsRepo(tx);
    if (m.isDefault) await repo.clearDefault();
    await repo.upsert({
      id: m.id,
      label: m.label,
      baseUrl: m.baseUrl,
      model: m.model,
      apiKeyEnc,
      pointsFeature: m.pointsFeature,
      capabilities: m.capabilities,
      enabled: m.enabled,
      isDefault: m.isDefault,
      sort: m.sort,
      updatedAt: new Date(),
    });
  }

  /** After a committed change: this process reloads on its next read, the others through the cache bus. */
  changed(): void {
    this.forget();
    this.bus?.publish(BUS_TOPIC, '*');
  }

  /** A client for 连接测试: the model's own settings, no retries, no concurrency slot, enabled or not. */
  async testClient(id: string): Promise<LlmClient | null> {
    const fromConfig = this.config.LLM_MODELS.find((m) => m.id === id);
    const row = fromConfig ? null : (await this.repo.list()).find((r) => r.id === id);
    const m = fromConfig ?? (row && { id: row.id, label: row.label, baseURL: row.baseUrl, model: row.model, apiKey: decryptSecret(this.key, row.apiKeyEnc) });
    return m ? createLlmClient(m, { ...this.config, LLM_MAX_RETRIES: 0 }, this.thread) : null;
  }

  /** Stops the model thread (the process is closing). */
  async close(): Promise<void> {
    await this.thread?.close();
  }
}
