import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { scrubDom } from '../../integrations/platforms/site-steps.js';
import type { StepFailureRecorder, StepFailureReport } from '../publish/step-failures.js';
import type { PlatformHealthRepo } from './platform-health.repo.js';
import type { SiteProfiles } from './site-profiles.js';

/** Step failures kept per platform (the newest); older rows and their screenshots are removed as new ones arrive. */
export const FAILURES_KEPT = 500;

interface ScreenshotSaver {
  /** `BrowserPool.saveScreenshot`: the file's path, or null when it could not be written. */
  saveScreenshot(name: string, image: Buffer | undefined): Promise<string | null>;
}

/**
 * Records the diagnostic of a failed step (publish attempts, bindings, the canary) for 平台健康: the screenshot as a
 * file beside the publish screenshots, the rest as a row, with the override version in use. The DOM excerpt is
 * scrubbed again here (scripts, form values, tokens) whatever the adapter did; cookies and sessions are never part of
 * a diagnostic. Never throws.
 */
export class StepFailures implements StepFailureRecorder {
  constructor(
    private readonly repo: PlatformHealthRepo,
    private readonly screenshots: ScreenshotSaver,
    private readonly profiles: Pick<SiteProfiles, 'version'>,
    private readonly clock: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly keep = FAILURES_KEPT,
  ) {}

  async record(r: StepFailureReport): Promise<void> {
    try {
      const d = r.diagnostic;
      const at = this.clock.now();
      const name = `step-${r.platform}-${at.getTime()}-${randomBytes(4).toString('hex')}`;
      const screenshotPath = await this.screenshots.saveScreenshot(name, d.screenshot);
      await this.repo.insertFailure({
        platform: r.platform,
        source: r.source,
        accountId: r.accountId,
        jobId: r.jobId,
        step: d.step,
        key: d.key,
        tried: d.tried.slice(0, 50).map((s) => s.slice(0, 300)),
        url: d.url.slice(0, 500),
        domExcerpt: scrubDom(d.domExcerpt),
        screenshotPath,
        message: d.message.slice(0, 1000),
        profileVersion: this.profiles.version(r.platform),
        at,
      });
      for (const file of await this.repo.prune(r.platform, this.keep)) await unlink(file).catch(() => undefined);
    } catch (err) {
      this.log.warn({ err, platform: r.platform, step: r.diagnostic.key }, 'step failure not recorded');
    }
  }
}
