import type { FastifyBaseLogger } from 'fastify';
import type { InvalidationBus } from '../../cache/bus.js';
import type { SiteProfileOverride, SiteProfileSource } from '../../integrations/platforms/site-steps.js';
import type { PlatformId } from '../../integrations/platforms/types.js';
import type { PlatformHealthRepo } from './platform-health.repo.js';

/** The cache bus topic: the message names the platform whose active override changed (every process reloads all). */
export const SITE_PROFILES_TOPIC = 'site-profiles';

interface Active {
  version: number;
  override: SiteProfileOverride;
}

/**
 * The operators' active site-profile overrides, held in memory so an adapter reads them synchronously at every use
 * (`override(platform)`): loaded at start-up, reloaded in this process right after a change commits and in every other
 * process through the cache bus, so the next publish anywhere uses the new locators without a restart. A bus that
 * may have missed messages (a re-established Redis subscription) reloads everything.
 */
export class SiteProfiles implements SiteProfileSource {
  private active = new Map<string, Active>();
  private started = 0;
  private applied = 0;

  constructor(
    private readonly repo: PlatformHealthRepo,
    private readonly bus: InvalidationBus | null,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {
    bus?.subscribe(SITE_PROFILES_TOPIC, () => this.reloadQuietly());
    bus?.onReset(() => this.reloadQuietly());
  }

  override(platform: PlatformId): SiteProfileOverride | null {
    return this.active.get(platform)?.override ?? null;
  }

  /** The active override version (0: the built-in profile). */
  version(platform: string): number {
    return this.active.get(platform)?.version ?? 0;
  }

  /**
   * Reads every platform's active override (a handful of rows) from the database; start-up awaits the first load.
   * Loads may finish out of order: only one started after the load last applied replaces what it applied.
   */
  async load(): Promise<void> {
    const seq = ++this.started;
    const rows = await this.repo.activeOverrides();
    if (seq < this.applied) return;
    this.applied = seq;
    const next = new Map<string, Active>();
    for (const r of rows) if (r.version > 0) next.set(r.platform, { version: r.version, override: r.override });
    this.active = next;
  }

  /** After a change committed: this process reloads before answering, the others when the bus tells them. */
  async changed(platform: string): Promise<void> {
    await this.load();
    this.bus?.publish(SITE_PROFILES_TOPIC, platform);
  }

  private reloadQuietly() {
    this.load().catch((err: unknown) => this.log.warn({ err }, 'site profiles not reloaded'));
  }
}
