import { limits } from '@inkstone/shared';
import type { Config } from '../../config.js';
import type { SafeFetcher } from '../fetch/types.js';
import { NoImageGenerator } from './none.js';
import { OpenAiImageGenerator } from './openai.js';
import type { ImageGenerator } from './types.js';

/** From config; `loadConfig` already refused `openai` without its base URL, key and model. */
export function createImageGenerator(config: Config, fetcher: SafeFetcher): ImageGenerator {
  if (config.IMAGEGEN_PROVIDER === 'openai') {
    return new OpenAiImageGenerator({
      baseURL: config.IMAGEGEN_BASE_URL!,
      apiKey: config.IMAGEGEN_API_KEY!,
      model: config.IMAGEGEN_MODEL!,
      size: config.IMAGEGEN_SIZE,
      responseFormat: config.IMAGEGEN_RESPONSE_FORMAT,
      timeoutMs: config.IMAGEGEN_TIMEOUT_MS,
      maxBytes: limits.uploadMaxBytes,
      fetcher,
    });
  }
  return new NoImageGenerator();
}

export * from './types.js';
