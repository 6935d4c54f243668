import { limits } from '@inkstone/shared';
import type { Config } from '../../config.js';
import type { SafeFetcher } from '../fetch/types.js';
import { NoMaterialSearch } from './none.js';
import { PexelsMaterialSearch } from './pexels.js';
import type { MaterialSearch } from './types.js';

/** From config; `loadConfig` already refused `pexels` without its key. */
export function createMaterialSearch(config: Config, fetcher: SafeFetcher): MaterialSearch {
  if (config.MATERIALS_PROVIDER === 'pexels') {
    return new PexelsMaterialSearch({
      baseURL: config.MATERIALS_BASE_URL,
      apiKey: config.MATERIALS_API_KEY!,
      perPage: 20,
      timeoutMs: config.MATERIALS_TIMEOUT_MS,
      maxBytes: limits.uploadMaxBytes,
      fetcher,
    });
  }
  return new NoMaterialSearch();
}

export * from './types.js';
