import { ErrorCode, type AdminSiteProfile, type AdminStepFailure, type Page } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import type { PlatformRegistry } from '../../integrations/platforms/index.js';
import { stepLabel, validateOverride, type SiteProfile, type SiteProfileOverride } from '../../integrations/platforms/site-steps.js';
import type { PlatformAdapter } from '../../integrations/platforms/types.js';
import type { AdminActor, AuditService, SystemActor } from '../admin/audit.service.js';
import type { PlatformHealthRepo, StepFailureRow } from './platform-health.repo.js';
import type { SiteProfiles } from './site-profiles.js';

const DAY_MS = 86_400_000;

const actorId = (actor: AdminActor | SystemActor) => ('system' in actor ? null : actor.userId);

/**
 * 平台健康: how the creator sites' automation is failing (step failures counted per step over 24 hours and 7 days, with
 * their diagnostics), and the operators' overrides of a site's paths and locators: saved as numbered versions (each
 * validated against the adapter's built-in profile), made active, rolled back to any earlier version or to the
 * built-in profile. Each change and its audit entry commit together; then every process's SiteProfiles reloads.
 */
export class PlatformHealthService {
  constructor(
    private readonly db: Db,
    private readonly repo: PlatformHealthRepo,
    private readonly platforms: PlatformRegistry,
    private readonly profiles: SiteProfiles,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  private adapter(platform: string): PlatformAdapter {
    const a = this.platforms.get(platform);
    if (!a) throw appError(ErrorCode.NOT_FOUND, `平台 ${platform} 未启用`);
    return a;
  }

  private builtIn(platform: string): { adapter: PlatformAdapter; profile: SiteProfile } {
    const adapter = this.adapter(platform);
    if (!adapter.siteProfile) throw appError(ErrorCode.CONFLICT, `${adapter.label}不是网页自动化发布，没有可调整的页面配置`);
    return { adapter, profile: adapter.siteProfile };
  }

  async overview() {
    const list = this.platforms.list();
    const ids = list.map((a) => a.id);
    const now = this.clock.now().getTime();
    const [day, week] = await Promise.all([this.repo.countsSince(new Date(now - DAY_MS), ids), this.repo.countsSince(new Date(now - 7 * DAY_MS), ids)]);
    return {
      platforms: list.map((a) => {
        const steps = new Map<string, { step: string; label: string; day: number; week: number }>();
        for (const r of week.filter((w) => w.platform === a.id)) steps.set(r.step, { step: r.step, label: stepLabel(r.step), day: 0, week: r.n });
        for (const r of day.filter((d) => d.platform === a.id)) steps.get(r.step)!.day = r.n;
        const rows = [...steps.values()].sort((x, y) => y.week - x.week || y.day - x.day);
        return {
          platform: a.id,
          label: a.label,
          sandbox: a.sandbox,
          editable: a.siteProfile !== undefined,
          activeVersion: this.profiles.version(a.id),
          day: rows.reduce((s, r) => s + r.day, 0),
          week: rows.reduce((s, r) => s + r.week, 0),
          steps: rows,
        };
      }),
    };
  }

  async failures(q: { platform: string; step?: string | undefined; pageNum: number; pageSize: number }): Promise<Page<AdminStepFailure>> {
    const { rows, total } = await this.repo.failures({ platform: q.platform, step: q.step }, (q.pageNum - 1) * q.pageSize, q.pageSize);
    return { records: rows.map(toFailure), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  /** The screenshot file of a failure (the console route streams it). */
  async screenshot(id: number): Promise<string> {
    const row = await this.repo.failure(id);
    if (!row?.screenshotPath) throw appError(ErrorCode.NOT_FOUND, '截图不存在');
    return row.screenshotPath;
  }

  async profile(platform: string): Promise<AdminSiteProfile> {
    const { adapter, profile } = this.builtIn(platform);
    const [activeVersion, versions] = await Promise.all([this.repo.activeVersion(this.db, platform), this.repo.versions(this.db, platform)]);
    const labels: Record<string, string> = {};
    for (const key of Object.keys(profile.steps)) labels[key] = stepLabel(key);
    return {
      platform,
      label: adapter.label,
      builtIn: profile,
      stepLabels: labels,
      activeVersion,
      active: versions.find((v) => v.version === activeVersion)?.override ?? null,
      versions: versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString(), active: v.version === activeVersion })),
    };
  }

  /**
   * Saves `candidate` as the platform's next version and makes it active. A candidate that fails validation changes
   * nothing and answers VALIDATION with every problem in `data.errors`.
   */
  async save(actor: AdminActor | SystemActor, platform: string, candidate: unknown, note: string): Promise<AdminSiteProfile> {
    const { profile } = this.builtIn(platform);
    const checked = validateOverride(profile, candidate);
    if (!checked.ok) throw appError(ErrorCode.VALIDATION, `页面配置有误：${checked.errors.join('；')}`, { errors: checked.errors });
    const now = this.clock.now();
    const by = actorId(actor);
    await this.db.transaction(async (tx) => {
      const version = await this.repo.lockNextVersion(tx, platform, by, now);
      const before = await this.activeState(tx, platform);
      await this.repo.insertVersion(tx, { platform, version, override: checked.override, note, createdBy: by, createdAt: now });
      await this.repo.setActive(tx, platform, version, by, now);
      await this.audit.record(tx, actor, {
        action: 'site_profile.save',
        targetType: 'site_profile',
        targetId: platform,
        before,
        after: { version, override: checked.override, note },
      });
    });
    await this.profiles.changed(platform);
    return this.profile(platform);
  }

  /** Makes an earlier version active again, or (version 0) the built-in profile. */
  async rollback(actor: AdminActor | SystemActor, platform: string, version: number): Promise<AdminSiteProfile> {
    this.builtIn(platform);
    const now = this.clock.now();
    const by = actorId(actor);
    await this.db.transaction(async (tx) => {
      await this.repo.lockNextVersion(tx, platform, by, now);
      const before = await this.activeState(tx, platform);
      if (before.version === version) throw appError(ErrorCode.CONFLICT, version === 0 ? '当前已在使用内置配置' : `版本 ${version} 已在使用中`);
      const target = version === 0 ? null : await this.repo.version(tx, platform, version);
      if (version !== 0 && !target) throw appError(ErrorCode.NOT_FOUND, `版本 ${version} 不存在`);
      await this.repo.setActive(tx, platform, version, by, now);
      await this.audit.record(tx, actor, {
        action: 'site_profile.rollback',
        targetType: 'site_profile',
        targetId: platform,
        before,
        after: { version, override: target?.override ?? null },
      });
    });
    await this.profiles.changed(platform);
    return this.profile(platform);
  }

  private async activeState(tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0], platform: string): Promise<{ version: number; override: SiteProfileOverride | null }> {
    const version = await this.repo.activeVersion(tx, platform);
    return { version, override: version ? ((await this.repo.version(tx, platform, version))?.override ?? null) : null };
  }
}

function toFailure(r: StepFailureRow): AdminStepFailure {
  return {
    id: r.id,
    platform: r.platform,
    source: r.source,
    accountId: r.accountId,
    jobId: r.jobId,
    step: r.step,
    stepLabel: stepLabel(r.key),
    key: r.key,
    tried: r.tried,
    url: r.url,
    domExcerpt: r.domExcerpt,
    message: r.message,
    profileVersion: r.profileVersion,
    screenshotUrl: r.screenshotPath ? `/api/admin/platform-health/screenshot?id=${r.id}` : null,
    at: r.at.toISOString(),
  };
}
