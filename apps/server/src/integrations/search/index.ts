import type { Config } from '../../config.js';
import { BochaSearch } from './bocha.js';
import { NoSearch } from './none.js';
import { SearxngSearch } from './searxng.js';
import { TavilySearch } from './tavily.js';
import type { SearchProvider } from './types.js';

/** Config has already checked that the chosen vendor's settings are present. */
export function createSearchProvider(config: Config): SearchProvider {
  switch (config.SEARCH_PROVIDER) {
    case 'bocha':
      return new BochaSearch({ apiKey: config.BOCHA_API_KEY!, baseUrl: config.BOCHA_API_BASE });
    case 'tavily':
      return new TavilySearch({ apiKey: config.TAVILY_API_KEY!, baseUrl: config.TAVILY_API_BASE });
    case 'searxng':
      return new SearxngSearch({ baseUrl: config.SEARXNG_URL! });
    case 'none':
      return new NoSearch();
  }
}
