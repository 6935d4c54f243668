import { ErrorCode, type GeneratedBy } from '@inkstone/shared';
import type { Config, LlmModelConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { LlmModelsRepo } from './llm-models.repo.js';
import { appError } from '../../http/errors.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import { createLlmClient, OFFLINE_MODEL_ID, OfflineWriter, type LlmClient } from '../../integrations/llm/index.js';
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

const DB_CACHE_MS = 30_000;

/** Who wrote a text, from its model id (the offline writer's id is fixed): shown beside the text, never in it. */
export const generatedBy = (modelId: string): GeneratedBy => (modelId === OFFLINE_MODEL_ID ? 'offline' : 'ai');

/**
 * Module logic over the llm integration (it reads the database and throws the user-facing MODEL_UNAVAILABLE), so it
 * lives here rather than in integrations/llm. The model picker's source: the offline writer (always), models from LLM_MODELS, and models added with the
 * admin CLI (API keys encrypted at rest). Admin-added models are re-read at most every 30 s.
 */
export class LlmRegistry {
  private readonly offline: ModelEntry;
  private readonly fromConfig: ModelEntry[];
  private dbModels: ModelEntry[] = [];
  private loadedAt = 0;
  /** Per model id, kept across re-reads of the admin-added models so a reload does not reset who holds a slot. */
  private readonly slots = new Map<string, ModelSlots>();
  private readonly repo: LlmModelsRepo;

  constructor(
    db: Db,
    private readonly key: Buffer,
    private readonly config: Pick<Config, 'LLM_MODELS' | 'LLM_DEFAULT_MODEL' | 'LLM_TIMEOUT_MS' | 'LLM_MAX_RETRIES' | 'LLM_RETRY_BASE_MS' | 'LLM_MAX_CONCURRENT'>,
  ) {
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
    const client = withSlots(createLlmClient(m, this.config), slots);
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

  private async fromDb(force = false): Promise<ModelEntry[]> {
    if (force || Date.now() - this.loadedAt > DB_CACHE_MS) {
      const rows = await this.repo.list();
      this.dbModels = rows
        .filter((r) => !this.fromConfig.some((c) => c.id === r.id))
        .map((r) =>
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
      this.loadedAt = Date.now();
    }
    return this.dbModels;
  }

  async list(): Promise<ModelEntry[]> {
    return [...this.fromConfig, ...(await this.fromDb()), this.offline];
  }

  async defaultId(): Promise<string> {
    if (this.config.LLM_DEFAULT_MODEL) return this.config.LLM_DEFAULT_MODEL;
    return (await this.list())[0]!.id;
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
    await this.fromDb(true);
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.repo.remove(id);
    await this.fromDb(true);
    return removed;
  }
}
