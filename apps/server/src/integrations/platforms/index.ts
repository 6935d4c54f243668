import type { Config } from '../../config.js';
import type { BrowserPool } from '../../browser/pool.js';
import { SandboxPlatformAdapter } from './sandbox.js';
import { XiaohongshuAdapter } from './xiaohongshu/adapter.js';
import { WechatMpPublisher } from './wechat-mp.js';
import type { PlatformAdapter, PlatformId } from './types.js';
import type { SiteProfileSource } from './site-steps.js';

/** The platforms offered, by id. Shared code looks adapters up here and never branches on the id. */
export class PlatformRegistry {
  private readonly byId: Map<PlatformId, PlatformAdapter>;
  constructor(adapters: PlatformAdapter[]) {
    this.byId = new Map(adapters.map((a) => [a.id, a]));
  }
  get(id: string): PlatformAdapter | null {
    return this.byId.get(id as PlatformId) ?? null;
  }
  list(): PlatformAdapter[] {
    return [...this.byId.values()];
  }
}

export interface PlatformDeps {
  pool: BrowserPool;
  /** Where the browser reaches the sandbox platform (known once the server listens). */
  sandboxBaseUrl: () => string;
  /** The sandbox site is this server's own (links shown to users become paths on it). */
  sandboxSameServer?: boolean;
  /** The operators' overrides of the browser-driven sites' paths and locators (平台健康); none: the built-in ones. */
  profiles?: SiteProfileSource;
}

export function createPlatforms(config: Config, deps: PlatformDeps): PlatformRegistry {
  const adapters = config.PUBLISH_PLATFORMS.map((id): PlatformAdapter => {
    switch (id) {
      case 'sandbox':
        return new SandboxPlatformAdapter(deps.pool, deps.sandboxBaseUrl, deps.sandboxSameServer ?? false, deps.profiles);
      case 'xiaohongshu':
        return new XiaohongshuAdapter(deps.pool, { creatorUrl: config.XHS_CREATOR_URL, edithUrl: config.XHS_EDITH_URL, profiles: deps.profiles });
      case 'wechat_mp':
        return new WechatMpPublisher({ apiBase: config.WECHAT_API_BASE });
    }
  });
  return new PlatformRegistry(adapters);
}
