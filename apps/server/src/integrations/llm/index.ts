import type { Config, LlmModelConfig } from '../../config.js';
import type { ModelThread } from './model-thread.js';
import { OpenAiCompatibleLlm } from './openai-compatible.js';
import type { LlmClient } from './types.js';

export type { LlmClient } from './types.js';
export { ModelThread } from './model-thread.js';
export { OFFLINE_MODEL_ID, OfflineWriter } from './offline.js';

/**
 * A client for one configured model (OpenAI-compatible protocol), its streams read in `thread` when given. Pure: the
 * model list, the choice of model and the errors users see belong to modules/llm/llm-registry.ts.
 */
export function createLlmClient(
  m: Pick<LlmModelConfig, 'id' | 'label' | 'baseURL' | 'apiKey' | 'model'>,
  config: Pick<Config, 'LLM_TIMEOUT_MS' | 'LLM_MAX_RETRIES' | 'LLM_RETRY_BASE_MS'>,
  thread?: ModelThread,
): LlmClient {
  const opts = {
    id: m.id,
    label: m.label,
    baseURL: m.baseURL,
    apiKey: m.apiKey,
    model: m.model,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxRetries: config.LLM_MAX_RETRIES,
    retryBaseMs: config.LLM_RETRY_BASE_MS,
  };
  return thread ? thread.client(opts) : new OpenAiCompatibleLlm(opts);
}
