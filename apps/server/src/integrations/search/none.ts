import type { SearchProvider, SearchResult } from './types.js';

/** Embedded default: online search is not configured, and says so. */
export class NoSearch implements SearchProvider {
  readonly name = 'none' as const;
  readonly enabled = false;
  async search(): Promise<SearchResult[]> {
    throw new Error('online search is not configured');
  }
}
