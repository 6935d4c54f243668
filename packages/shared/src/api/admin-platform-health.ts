import { z } from 'zod';
import { pageOf, pageQuery } from './common.js';
import { publishPlatformIds } from './publish.js';

/**
 * 平台健康 in the console (/api/admin/platform-health): step failures of the creator sites' browser automation, and
 * the operators' overrides of a site's paths and step locators, versioned, with rollback.
 */
const platform = z.enum(publishPlatformIds, { error: `平台 platform 必须是 ${publishPlatformIds.join('、')} 之一` });

export const adminPlatformQuery = z.object({ platform });

/** Failures of one step over the last 24 hours and 7 days. */
export const adminStepCountSchema = z.object({
  step: z.string(),
  /** The step in Chinese (打开发布页, 填写标题, ...). */
  label: z.string(),
  day: z.number().int(),
  week: z.number().int(),
});

export const adminPlatformHealthSchema = z.object({
  platform: z.string(),
  label: z.string(),
  sandbox: z.boolean(),
  /** Driven by a browser with a step profile an operator may override. */
  editable: z.boolean(),
  /** The override version in use; 0 = the built-in profile. */
  activeVersion: z.number().int(),
  day: z.number().int(),
  week: z.number().int(),
  steps: z.array(adminStepCountSchema),
});
export const adminPlatformHealthListSchema = z.object({ platforms: z.array(adminPlatformHealthSchema) });

/** GET /admin/platform-health/failures */
export const adminStepFailureQuery = pageQuery.extend({ platform, step: z.string().trim().max(40).optional() });
export const adminStepFailureSchema = z.object({
  id: z.number().int(),
  platform: z.string(),
  source: z.enum(['publish', 'binding', 'canary']),
  accountId: z.number().int().nullable(),
  jobId: z.string().nullable(),
  step: z.string(),
  stepLabel: z.string(),
  key: z.string(),
  tried: z.array(z.string()),
  url: z.string(),
  domExcerpt: z.string(),
  message: z.string(),
  profileVersion: z.number().int(),
  /** GET this console route (with the login header) for the PNG; null when none was captured. */
  screenshotUrl: z.string().nullable(),
  at: z.string(),
});
export type AdminStepFailure = z.infer<typeof adminStepFailureSchema>;
export const adminStepFailurePageSchema = pageOf(adminStepFailureSchema);

/** GET /admin/platform-health/screenshot (a PNG, not the envelope) */
export const adminStepFailureIdQuery = z.object({ id: z.coerce.number({ error: 'id 必须是数字' }).int().min(1, 'id 无效') });

const siteProfileSchema = z.object({ paths: z.record(z.string(), z.string()), steps: z.record(z.string(), z.array(z.string())) });
const siteProfileOverrideSchema = z.object({ paths: z.record(z.string(), z.string()).optional(), steps: z.record(z.string(), z.array(z.string())).optional() });

export const adminSiteProfileVersionSchema = z.object({
  version: z.number().int(),
  override: siteProfileOverrideSchema,
  note: z.string(),
  createdBy: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  active: z.boolean(),
});
export type AdminSiteProfileVersion = z.infer<typeof adminSiteProfileVersionSchema>;

/** GET /admin/platform-health/profile */
export const adminSiteProfileSchema = z.object({
  platform: z.string(),
  label: z.string(),
  builtIn: siteProfileSchema,
  /** Each step key in Chinese (the part before the dot names the step). */
  stepLabels: z.record(z.string(), z.string()),
  activeVersion: z.number().int(),
  /** The override in use, or null for the built-in profile. */
  active: siteProfileOverrideSchema.nullable(),
  /** Newest first. */
  versions: z.array(adminSiteProfileVersionSchema),
});
export type AdminSiteProfile = z.infer<typeof adminSiteProfileSchema>;

/**
 * POST /admin/platform-health/profile/save: `override` is checked against the built-in profile on the server (known
 * keys, paths on the site, 1-12 selectors a step); refused overrides change nothing and answer 1001 with `data.errors`.
 */
export const adminSiteProfileSaveBody = z.object({
  platform,
  override: z.record(z.string(), z.unknown(), { error: '配置 override 必须是 JSON 对象' }),
  note: z.string({ error: '请填写修改说明 note' }).trim().min(1, '请填写修改说明 note').max(200, '修改说明 note 最多200个字符'),
});

/** POST /admin/platform-health/profile/rollback: to any saved version, or 0 for the built-in profile. */
export const adminSiteProfileRollbackBody = z.object({
  platform,
  version: z.coerce.number({ error: '版本 version 必须是数字' }).int('版本 version 必须是整数').min(0, '版本 version 最小为0'),
});
