import { z } from 'zod';
import { isLoopbackUrl } from './sandbox-guard.js';

/**
 * The only reader of process.env. Every variable is documented in .env.example.
 * A bad value fails start-up with a message that names the variable.
 */
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const optionalUrl = z.url().optional();
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** What a process runs: `web` serves HTTP, `worker` runs jobs and schedules, `publisher` drives the browser. */
export const ROLE_NAMES = ['web', 'worker', 'publisher'] as const;
export type Role = (typeof ROLE_NAMES)[number];

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    REDIS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w-]{1,32}$/, 'letters, digits, _ and - only')
      .default('inkstone'),
    APP_SECRET_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
        .optional(),
    ),
    PUBLIC_URL: z.preprocess(emptyToUndefined, optionalUrl),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Parsed into `roles` below; code reads `config.roles`, never this string. */
    ROLES: z
      .string()
      .default('web,worker,publisher')
      .superRefine((v, ctx) => {
        const names = v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
        const unknown = names.filter((r) => !(ROLE_NAMES as readonly string[]).includes(r));
        if (unknown.length || names.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `ROLES must list one or more of ${ROLE_NAMES.join(', ')} (comma-separated)${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
          });
        }
      }),
    WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    RATE_LIMIT_ANON_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
    TRUST_PROXY: z.preprocess(emptyToUndefined, bool.default(false)),
    FEATURES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The desktop / app download page offered by the download modal; unset hides it. */
    APP_DOWNLOAD_URL: z.preprocess(emptyToUndefined, optionalUrl),
    /** Lets a production server on a public address start with sandboxes active (a demo site); see sandbox-guard.ts. */
    ALLOW_SANDBOXES: z.preprocess(emptyToUndefined, bool.default(false)),
    /** Test hooks of the sandbox creator site (_control, _notes); always on when NODE_ENV=test. */
    SANDBOX_HOOKS: z.preprocess(emptyToUndefined, bool.default(false)),
    /**
     * Test hook: the data area's "today" (YYYY-MM-DD, Asia/Shanghai) is fixed, so tests and e2e assert the sandbox's
     * exact figures. Only with the test hooks (NODE_ENV=test or SANDBOX_HOOKS=1), never on a public production server.
     */
    DATA_TODAY: z.preprocess(emptyToUndefined, z.iso.date().optional()),

    SMS_PROVIDER: z.enum(['outbox', 'aliyun', 'tencent']).default('outbox'),
    ALIYUN_SMS_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIYUN_SMS_ACCESS_KEY_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIYUN_SMS_SIGN_NAME: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIYUN_SMS_TEMPLATE_CODE: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com'),
    TENCENT_SMS_SECRET_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    TENCENT_SMS_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    TENCENT_SMS_SDK_APP_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    TENCENT_SMS_SIGN_NAME: z.preprocess(emptyToUndefined, z.string().optional()),
    TENCENT_SMS_TEMPLATE_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    TENCENT_SMS_REGION: z.string().default('ap-guangzhou'),
    TENCENT_SMS_ENDPOINT: z.url().default('https://sms.tencentcloudapi.com'),

    WECHAT_LOGIN_PROVIDER: z.enum(['sandbox', 'mp']).default('sandbox'),
    WECHAT_MP_APP_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_MP_APP_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_MP_TOKEN: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_API_BASE: z.url().default('https://api.weixin.qq.com'),
    WECHAT_QR_IMAGE_BASE: z.url().default('https://mp.weixin.qq.com/cgi-bin/showqrcode'),

    PAYMENT_PROVIDER: z
      .string()
      .default('sandbox')
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(['sandbox', 'wechat', 'alipay'])).min(1, 'must name at least one of sandbox, wechat, alipay'))
      .refine((l) => !(l.includes('sandbox') && l.length > 1), 'sandbox cannot be combined with a real gateway'),
    WECHAT_PAY_MCHID: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_APPID: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_MERCHANT_SERIAL: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_APIV3_KEY: z.preprocess(emptyToUndefined, z.string().length(32, 'must be exactly 32 characters').optional()),
    WECHAT_PAY_PLATFORM_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_PLATFORM_SERIAL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[0-9A-Fa-f]{1,64}$/, 'the platform certificate serial: hex digits (a PUB_KEY_ID_... goes in WECHAT_PAY_PUBLIC_KEY_ID)')
        .optional(),
    ),
    WECHAT_PAY_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    WECHAT_PAY_PUBLIC_KEY_ID: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^PUB_KEY_ID_/, 'must start with PUB_KEY_ID_')
        .optional(),
    ),
    WECHAT_PAY_API_BASE: z.url().default('https://api.mch.weixin.qq.com'),
    ALIPAY_APP_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIPAY_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIPAY_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIPAY_SELLER_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    ALIPAY_GATEWAY: z.url().default('https://openapi.alipay.com/gateway.do'),
    PAY_ORDER_TTL_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
    /** Points every new account receives once, at registration, so a new creator can try paid writing at once; 0 = none. */
    WELCOME_POINTS: z.coerce.number().int().min(0).max(1_000_000).default(100),
    /** Operators' console: writes need an SMS code again after this many idle minutes. */
    ADMIN_SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    /** Operators' console: every console call needs an SMS code again this long after the last verification (or login). */
    ADMIN_SESSION_MAX_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(12),

    /** AI writing models: JSON list of {id, label, baseURL, model, apiKey, pointsFeature?, capabilities?}; unset = offline writer only. */
    LLM_MODELS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .optional()
        .transform((v, ctx) => parseLlmModels(v, ctx)),
    ),
    /** Model used when the user picks none; default: the first of LLM_MODELS, else the offline writer. */
    LLM_DEFAULT_MODEL: z.preprocess(emptyToUndefined, z.string().optional()),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
    LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
    LLM_RETRY_BASE_MS: z.coerce.number().int().min(0).default(1000),
    /**
     * Model streams are read in a thread of their own (started on the first), off the event loop that serves requests;
     * false reads them on it.
     */
    LLM_THREAD: z.preprocess(emptyToUndefined, bool.default(true)),
    /**
     * Writing jobs one worker process runs at once. They spend their time waiting on the model, so this is set high; what
     * bounds the calls is each model's own limit (LLM_MAX_CONCURRENT, or `maxConcurrent` in LLM_MODELS).
     */
    WRITING_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(500),
    /** Streams one process keeps open to one model at once, unless the model sets `maxConcurrent` (its vendor's limit). */
    LLM_MAX_CONCURRENT: z.coerce.number().int().min(1).max(5000).default(100),
    /** 智能体: a tool call that would spend more points than this waits for the user's confirm (publishing always does). */
    AGENT_CONFIRM_POINTS: z.coerce.number().int().min(0).max(100_000).default(10),
    /**
     * Entries each in-process cache of a web process holds (sessions, bubble counts, account unread counts), one per
     * online creator or account. The caches allocate their slots up front (~50 bytes each per cache), so the default
     * fits a small install; raise it to the online creators (or bound accounts) one process sees, see docs/DEPLOY.md.
     */
    CACHE_MAX_ENTRIES: z.coerce.number().int().min(1000).max(5_000_000).default(20_000),
    /**
     * How often an agent stream re-reads stored events. A writing stream is woken by every stored event (over the cache
     * bus between processes) and re-reads only as a safety net, at this or 5 s, whichever is longer.
     */
    WRITING_STREAM_POLL_MS: z.coerce.number().int().min(20).max(10_000).default(250),
    SEARCH_PROVIDER: z.enum(['none', 'bocha', 'tavily', 'searxng']).default('none'),
    BOCHA_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    BOCHA_API_BASE: z.url().default('https://api.bochaai.com'),
    TAVILY_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    TAVILY_API_BASE: z.url().default('https://api.tavily.com'),
    SEARXNG_URL: z.preprocess(emptyToUndefined, optionalUrl),
    /** Hot lists for 选题: weibo, zhihu, baidu, toutiao, bilibili[=base], feed=<url> (repeatable), snapshot (bundled, dated; the default). */
    TRENDS_SOURCES: z.string().default('snapshot'),
    /**
     * 知识库 vector search: any OpenAI-compatible `/v1/embeddings` endpoint (DashScope text-embedding-v3, Zhipu
     * embedding-3, SiliconFlow bge-m3, Ollama, vLLM). Unset base URL = none: full-text search only, said so.
     */
    EMBEDDINGS_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
    EMBEDDINGS_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    EMBEDDINGS_MODEL: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Requested vector size (models that accept `dimensions`); unset = the model's own. */
    EMBEDDINGS_DIMENSIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(8).max(4096).optional()),
    EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
    /**
     * AI pictures for graphic posts: none (the default; the editor says they are off) | openai (any OpenAI-compatible
     * `/v1/images/generations`: DALL-E / gpt-image, DashScope Qwen-image and SiliconFlow Kolors compatible endpoints).
     */
    IMAGEGEN_PROVIDER: z.enum(['none', 'openai']).default('none'),
    IMAGEGEN_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
    IMAGEGEN_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    IMAGEGEN_MODEL: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Requested size (the picture is then cropped to the 1080x1440 card). */
    IMAGEGEN_SIZE: z
      .string()
      .regex(/^\d{3,4}x\d{3,4}$/, 'IMAGEGEN_SIZE must look like 1024x1536')
      .default('1024x1536'),
    /** 'b64_json' asks for inline bytes; empty sends no response_format (gpt-image always answers b64, some vendors only URLs). */
    IMAGEGEN_RESPONSE_FORMAT: z.enum(['', 'b64_json', 'url']).default('b64_json'),
    IMAGEGEN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
    /**
     * Stock photos for card pictures (material search): none (the default; the editor says it is off) | pexels (the
     * Pexels API v1 protocol: key in Authorization, /search and /photos/:id).
     */
    MATERIALS_PROVIDER: z.enum(['none', 'pexels']).default('none'),
    MATERIALS_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.pexels.com/v1')),
    MATERIALS_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    MATERIALS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(20_000),
    /** 知识库 quotas "docs,MB,vipDocs,vipMB" (empty: 200 docs / 500 MB, VIP 2000 / 5120 MB). */
    KNOWLEDGE_QUOTA: z
      .string()
      .regex(/^$|^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$/, 'KNOWLEDGE_QUOTA must be "docs,MB,vipDocs,vipMB"')
      .default(''),
    STORAGE_PROVIDER: z.enum(['local', 's3']).default('local'),
    S3_ENDPOINT: z.preprocess(emptyToUndefined, optionalUrl),
    S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
    S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
    S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, bool.default(true)),
    S3_PUBLIC_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
    /** host:port origins the user-URL client may reach on our own network: loopback stand-ins in tests; refused in production. */
    SAFE_FETCH_ALLOW_HOSTS: z
      .string()
      .default('')
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.string().regex(/^[a-z0-9.-]+:\d{1,5}$/, 'entries must be host:port'))),

    /** Publishing platforms offered for binding: sandbox (embedded simulated creator site), xiaohongshu, wechat_mp. */
    PUBLISH_PLATFORMS: z
      .string()
      .default('sandbox,xiaohongshu,wechat_mp')
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(['sandbox', 'xiaohongshu', 'wechat_mp'])).min(1, 'must name at least one of sandbox, xiaohongshu, wechat_mp')),
    CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
    BROWSER_MAX_CONTEXTS: z.coerce.number().int().min(1).max(32).default(3),
    BROWSER_IDLE_MS: z.coerce.number().int().min(1000).default(120_000),
    /** Chromium with a window instead of headless (sites flag headless logins); on DISPLAY, or an Xvfb the publisher starts. */
    BROWSER_HEADFUL: z.preprocess(emptyToUndefined, bool.default(false)),
    /** The X display for BROWSER_HEADFUL (the usual X variable); unset = the publisher starts its own Xvfb. */
    DISPLAY: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Where the publisher's browser reaches the sandbox platform; default: this server on loopback. */
    SANDBOX_PLATFORM_URL: z.preprocess(emptyToUndefined, optionalUrl),
    XHS_CREATOR_URL: z.url().default('https://creator.xiaohongshu.com'),
    XHS_EDITH_URL: z.url().default('https://edith.xiaohongshu.com'),
    PUBLISH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    PUBLISH_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).default(5000),
    /** How often comments, mentions and unread counts are fetched for every bound account. */
    PUBLISH_ENGAGEMENT_INTERVAL_MS: z.coerce.number().int().min(1000).default(300_000),
    /**
     * Per-account publish pacing by platform id, replacing the platform's default: JSON
     * `{"xiaohongshu":{"minIntervalMs":7200000,"dailyCap":5,"jitterMs":600000}}`; `null` for a platform turns its pacing off.
     */
    PUBLISH_PACING: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .optional()
        .transform((v, ctx) => parsePublishPacing(v, ctx)),
    ),
  })
  .transform((c) => ({
    ...c,
    roles: new Set(
      c.ROLES.split(',')
        .map((r) => r.trim())
        .filter(Boolean) as Role[],
    ) as ReadonlySet<Role>,
  }));

const llmModelSchema = z.object({
  id: z.string().regex(/^[\w.-]{1,64}$/, 'id: letters, digits, _ . - only'),
  label: z.string().min(1).max(50),
  baseURL: z.url(),
  model: z.string().min(1),
  apiKey: z.string().min(1),
  pointsFeature: z.string().optional(),
  capabilities: z.array(z.string()).default([]),
  /** The vendor's limit on concurrent requests for this model (per process); default LLM_MAX_CONCURRENT. */
  maxConcurrent: z.number().int().min(1).max(5000).optional(),
});
export type LlmModelConfig = z.infer<typeof llmModelSchema>;

function parseLlmModels(v: string | undefined, ctx: z.RefinementCtx): LlmModelConfig[] {
  if (!v) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON list of models' });
    return [];
  }
  const parsed = z.array(llmModelSchema).safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) ctx.addIssue({ code: 'custom', message: `[${i.path.join('.')}] ${i.message}` });
    return [];
  }
  const ids = parsed.data.map((m) => m.id);
  if (new Set(ids).size !== ids.length || ids.includes('offline')) ctx.addIssue({ code: 'custom', message: 'model ids must be unique and not "offline"' });
  return parsed.data;
}

const pacingSchema = z
  .object({
    minIntervalMs: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400_000),
    dailyCap: z.number().int().min(1).max(1000),
    jitterMs: z.number().int().min(0).max(86_400_000),
  })
  .strict();
export type PublishPacingConfig = Partial<Record<'sandbox' | 'xiaohongshu' | 'wechat_mp', z.infer<typeof pacingSchema> | null>>;

function parsePublishPacing(v: string | undefined, ctx: z.RefinementCtx): PublishPacingConfig {
  if (!v) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object by platform id' });
    return {};
  }
  const parsed = z.partialRecord(z.enum(['sandbox', 'xiaohongshu', 'wechat_mp']), pacingSchema.nullable()).safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) ctx.addIssue({ code: 'custom', message: `[${i.path.join('.')}] ${i.message}` });
    return {};
  }
  return parsed.data;
}

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const need = (provider: string, keys: (keyof Config)[]) => {
    const missing = keys.filter((k) => !cfg[k]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n  ${missing.join(', ')}: required when ${provider}`);
  };
  if (cfg.SMS_PROVIDER === 'aliyun') need('SMS_PROVIDER=aliyun', ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE']);
  if (cfg.SMS_PROVIDER === 'tencent')
    need('SMS_PROVIDER=tencent', ['TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATE_ID']);
  if (cfg.WECHAT_LOGIN_PROVIDER === 'mp') need('WECHAT_LOGIN_PROVIDER=mp', ['WECHAT_MP_APP_ID', 'WECHAT_MP_APP_SECRET', 'WECHAT_MP_TOKEN']);
  if (cfg.PAYMENT_PROVIDER.includes('wechat')) {
    need('PAYMENT_PROVIDER=wechat', ['WECHAT_PAY_MCHID', 'WECHAT_PAY_APPID', 'WECHAT_PAY_MERCHANT_SERIAL', 'WECHAT_PAY_PRIVATE_KEY', 'WECHAT_PAY_APIV3_KEY']);
    // Notifications cannot be verified without at least one WeChat Pay key (platform certificate or public key).
    if (!cfg.WECHAT_PAY_PLATFORM_PUBLIC_KEY && !cfg.WECHAT_PAY_PUBLIC_KEY) need('PAYMENT_PROVIDER=wechat', ['WECHAT_PAY_PUBLIC_KEY']);
    if (cfg.WECHAT_PAY_PLATFORM_PUBLIC_KEY) need('WECHAT_PAY_PLATFORM_PUBLIC_KEY is set', ['WECHAT_PAY_PLATFORM_SERIAL']);
    if (cfg.WECHAT_PAY_PUBLIC_KEY) need('WECHAT_PAY_PUBLIC_KEY is set', ['WECHAT_PAY_PUBLIC_KEY_ID']);
  }
  if (cfg.PAYMENT_PROVIDER.includes('alipay')) need('PAYMENT_PROVIDER=alipay', ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY', 'ALIPAY_SELLER_ID']);
  if (cfg.STORAGE_PROVIDER === 's3') need('STORAGE_PROVIDER=s3', ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
  if (cfg.DATA_TODAY && cfg.NODE_ENV !== 'test' && (!cfg.SANDBOX_HOOKS || !cfg.PUBLIC_URL || !isLoopbackUrl(cfg.PUBLIC_URL))) {
    throw new ConfigError('Invalid configuration:\n  DATA_TODAY: a test hook; only with NODE_ENV=test, or SANDBOX_HOOKS=1 on a loopback PUBLIC_URL (e2e)');
  }
  if (cfg.NODE_ENV === 'production' && cfg.SAFE_FETCH_ALLOW_HOSTS.length) {
    throw new ConfigError('Invalid configuration:\n  SAFE_FETCH_ALLOW_HOSTS: tests only; it must be empty in production');
  }
  if (cfg.SEARCH_PROVIDER === 'bocha') need('SEARCH_PROVIDER=bocha', ['BOCHA_API_KEY']);
  if (cfg.SEARCH_PROVIDER === 'tavily') need('SEARCH_PROVIDER=tavily', ['TAVILY_API_KEY']);
  if (cfg.SEARCH_PROVIDER === 'searxng') need('SEARCH_PROVIDER=searxng', ['SEARXNG_URL']);
  if (cfg.IMAGEGEN_PROVIDER === 'openai') need('IMAGEGEN_PROVIDER=openai', ['IMAGEGEN_BASE_URL', 'IMAGEGEN_API_KEY', 'IMAGEGEN_MODEL']);
  if (cfg.MATERIALS_PROVIDER === 'pexels') need('MATERIALS_PROVIDER=pexels', ['MATERIALS_API_KEY']);
  if (cfg.EMBEDDINGS_BASE_URL) need('EMBEDDINGS_BASE_URL is set', ['EMBEDDINGS_API_KEY', 'EMBEDDINGS_MODEL']);
  if (cfg.LLM_DEFAULT_MODEL && cfg.LLM_DEFAULT_MODEL !== 'offline' && !cfg.LLM_MODELS.some((m) => m.id === cfg.LLM_DEFAULT_MODEL)) {
    throw new ConfigError(`Invalid configuration:\n  LLM_DEFAULT_MODEL: no model ${cfg.LLM_DEFAULT_MODEL} in LLM_MODELS`);
  }
  return cfg;
}
