import type { SearchOptions, SearchProvider, SearchResult } from '../../integrations/search/types.js';
import type { SourceSwitches } from '../sources/sources.service.js';

/**
 * The configured search vendor behind the console's switch (模型与来源): `enabled` says whether one is configured,
 * `available()` whether it is also switched on right now; a search while it is off finds nothing.
 */
export class SwitchedSearch implements SearchProvider {
  constructor(
    private readonly inner: SearchProvider,
    private readonly switches: Pick<SourceSwitches, 'isOn'> | null,
  ) {}

  get name() {
    return this.inner.name;
  }

  get enabled() {
    return this.inner.enabled;
  }

  async available(): Promise<boolean> {
    return this.inner.enabled && (!this.switches || (await this.switches.isOn('search', this.inner.name)));
  }

  async search(query: string, opts?: SearchOptions): Promise<SearchResult[]> {
    return (await this.available()) ? this.inner.search(query, opts) : [];
  }
}
