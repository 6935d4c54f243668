import type { BrowserPool } from '../../browser/pool.js';
import { SandboxPlatformAdapter } from './sandbox.js';
// Placeholder while the real automation is written.
export class XiaohongshuAdapter extends SandboxPlatformAdapter {
  constructor(pool: BrowserPool, opts: { creatorUrl: string; edithUrl: string }) {
    super(pool, () => opts.creatorUrl);
  }
}
