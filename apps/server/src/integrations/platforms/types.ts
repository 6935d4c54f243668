import type { ImageLoader } from './images.js';
import type { SiteProfile, StepDiagnostic } from './site-steps.js';

/**
 * One interface for every publishing platform. Shared code (binding, publishing jobs, engagement)
 * only talks to this; nothing outside `integrations/platforms/<vendor>` knows a platform's quirks.
 */
export const platformIds = ['sandbox', 'xiaohongshu', 'wechat_mp'] as const;
export type PlatformId = (typeof platformIds)[number];

export interface PlatformLimits {
  /** Counted CJK-aware (see `textLength`). */
  titleMax: number;
  titleRequired: boolean;
  bodyMax: number;
  imagesMin: number;
  imagesMax: number;
  topicsMax: number;
  /**
   * 'native': the platform holds a scheduled note (the job runs now and passes the time on);
   * 'queue': our job waits until the time; null: scheduling not offered.
   */
  schedule: { mode: 'native' | 'queue'; minAheadMs: number; maxAheadMs: number } | null;
  /**
   * Per-account spacing of notes: platforms that punish automated bursts (小红书 warns, then mutes the account) get
   * it by default; absent: publish as fast as asked. The operator's PUBLISH_PACING replaces it.
   */
  pacing?: PlatformPacing;
}

/** `minIntervalMs` between any two notes of one account, at most `dailyCap` per China day, pushed jobs get [0, jitterMs) more. */
export interface PlatformPacing {
  minIntervalMs: number;
  dailyCap: number;
  jitterMs: number;
}

export interface PublishContent {
  /** 'image': an image note (图文), its images in order are the note; absent or 'article': an article. */
  kind?: 'article' | 'image';
  title: string;
  /** HTML or plain text; adapters convert to what the platform takes. */
  body: string;
  /** data: URLs or http(s) URLs. */
  images: string[];
  /** Without the leading '#'. */
  topics: string[];
  /**
   * Made with a model (text or images): the platform's own AI-content declaration is set where it has one
   * (小红书「笔记含AI合成内容」), as 《人工智能生成合成内容标识办法》 requires.
   */
  aiGenerated?: boolean;
}

export interface AccountProfile {
  platformUserId: string;
  accountName: string;
  avatar: string | null;
  followerCount?: number;
  noteCount?: number;
}

/** The platform session, kept encrypted at rest: browser storage state JSON, or API credentials. */
export type SessionBlob = string;

export type ScanState = 'waiting' | 'scanned' | 'confirmed' | 'expired' | 'failed';

export interface LoginStart {
  /** Opaque to shared code; stored encrypted and handed back to poll/complete. */
  state: string;
  /** data: URL of the QR to show, or null when the login needs no scan (API credentials). */
  qrImage: string | null;
  expiresInMs: number;
}

export interface UnreadCounts {
  unread_count: number;
  likes: number;
  connections: number;
  mentions: number;
}

export interface PlatformComment {
  id: string;
  noteId: string | null;
  noteTitle: string | null;
  author: string;
  content: string;
  createdAt: Date;
}

export interface PublishOptions {
  /** For 'native' scheduling. */
  scheduleAt?: Date;
  /** Written durably by the caller just before the final submit (the idempotency marker). */
  beforeSubmit(): Promise<void>;
  /** Turns content images into files (our stored uploads, data: URLs, public URLs via the SSRF-safe client). */
  images?: ImageLoader;
  /** The canary: run every step up to, not including, the final submit, then stop without posting anything. */
  dryRun?: boolean;
}

export interface PublishResult {
  /** 'rejected': the platform took the note but did not approve it (小红书「未通过」). */
  /** 'draft': saved on the platform, not published (a WeChat account without API publishing); the owner publishes it there. */
  status: 'published' | 'scheduled' | 'reviewing' | 'rejected' | 'draft';
  url: string | null;
  noteId: string | null;
  /** The session after the run (cookies refreshed), when it changed. */
  session?: SessionBlob;
  /** The canary's dry run stopped before the final submit: nothing was posted. */
  stoppedBeforeSubmit?: boolean;
  /** What went out differently from what was asked, in Chinese (a topic the platform did not offer, skipped). */
  warnings?: string[];
}

/** One account's figures for one calendar day (Asia/Shanghai): `followers` at the end of the day, the rest that day's amounts. */
export interface AccountDayFigures {
  day: string;
  followers: number;
  newFollowers: number;
  views: number;
  likes: number;
  collects: number;
  comments: number;
  shares: number;
}
/** One note's cumulative figures at the end of a day. */
export interface NoteDayFigures {
  day: string;
  noteId: string;
  title: string;
  url: string | null;
  publishedAt: Date;
  views: number;
  likes: number;
  collects: number;
  comments: number;
  shares: number;
}
/**
 * The optional data capability (数据分析): complete days only, `from`..`to` inclusive (`YYYY-MM-DD`); a platform
 * whose figures lag (WeChat's datacube answers up to yesterday) returns what it has and says so in `lastDay`.
 */
export interface PlatformMetrics {
  /** The newest complete day the platform can report (null: none yet). */
  lastDay: string | null;
  days: AccountDayFigures[];
  notes: NoteDayFigures[];
}

export interface PlatformAdapter {
  readonly id: PlatformId;
  readonly label: string;
  /** True for the embedded simulated site; the UI marks it 沙箱. */
  readonly sandbox: boolean;
  /** 'qr': startLogin shows a QR to scan; 'credentials': startLogin takes API keys and needs no scan. */
  readonly login: 'qr' | 'credentials';
  readonly limits: PlatformLimits;
  /**
   * How an image note (图文) is published: 'native' as the platform's own image note (images, title, body, topics),
   * 'inline' as an article with every image in the body (platforms without image notes).
   */
  readonly imageNotes: 'native' | 'inline';
  /** Login, session checks and publishing drive Chromium: only a publisher process may run them. */
  readonly usesBrowser?: boolean;
  /**
   * `metrics` drives Chromium (a creator centre's data pages): its snapshots run on the publisher role. Absent or
   * false: it is an HTTP API call and runs on the worker role, whatever `usesBrowser` says of publishing.
   */
  readonly metricsUseBrowser?: boolean;
  /**
   * Why this platform's login cannot read unread counts and comments (Chinese, shown to the creator), when it cannot:
   * the engagement sync then skips them instead of failing or faking zeros.
   */
  readonly inboxUnavailable?: string;
  /** A browser-driven site's built-in paths and step locators, which an operator may override at run time. */
  readonly siteProfile?: SiteProfile;

  startLogin(ownerKey: string, input: Record<string, unknown>): Promise<LoginStart>;
  /** `error`: why a 'failed' login failed, in Chinese (a captcha after the scan). */
  pollLogin(state: string): Promise<{ scanState: ScanState; qrImage?: string | null; error?: string }>;
  completeLogin(state: string): Promise<{ session: SessionBlob; profile: AccountProfile }>;
  /** Frees whatever the login holds (a browser page). Safe to call twice. */
  cancelLogin(state: string): Promise<void>;

  /** Throws SessionExpiredError when the platform no longer accepts the session. */
  checkSession(accountKey: string, session: SessionBlob): Promise<AccountProfile>;
  publish(accountKey: string, session: SessionBlob, content: PublishContent, opts: PublishOptions): Promise<PublishResult>;
  /** After an interrupted submit: the note if it reached the platform (looked up in its notes list). */
  findPublished(accountKey: string, session: SessionBlob, content: PublishContent, since: Date): Promise<PublishResult | null>;
  publishStatus(accountKey: string, session: SessionBlob, noteId: string): Promise<PublishResult>;
  unreadCounts(accountKey: string, session: SessionBlob): Promise<UnreadCounts>;
  comments(accountKey: string, session: SessionBlob): Promise<PlatformComment[]>;
  stats(accountKey: string, session: SessionBlob): Promise<{ followerCount: number; noteCount: number }>;
  /**
   * Daily account and note figures for the data area (optional: a platform without it shows as 暂不支持数据分析).
   * Throws SessionExpiredError when the session is gone.
   */
  metrics?(accountKey: string, session: SessionBlob, range: { from: string; to: string }): Promise<PlatformMetrics>;
  /** Frees what the account holds in this process (its browser context). */
  releaseAccount?(accountKey: string): Promise<boolean>;
  /** Topic suggestions the platform offers for a keyword (empty when it has none). */
  searchTopics(accountKey: string, session: SessionBlob, keyword: string): Promise<string[]>;
}

/** Typed failures. Shared code decides retry / account state from the class only. */
export class PlatformError extends Error {
  /** Worth retrying: network trouble, a crashed browser, a slow page. */
  readonly transient: boolean = false;
  screenshot?: Buffer;
  /** Set when the failure happened inside a named step of a site's automation (what the console's 平台健康 shows). */
  diagnostic?: StepDiagnostic;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** The platform logged the account out: the account is marked expired and the user must log in again. */
export class SessionExpiredError extends PlatformError {}
/** The platform demands a captcha / slider; a person must intervene (log in again in a browser). */
export class CaptchaError extends PlatformError {}
/** The platform refused the content (sensitive words, limits). */
export class ContentRejectedError extends PlatformError {}
/** Too many actions: retry later. */
export class RateLimitedError extends PlatformError {
  override readonly transient = true;
}
/** Anything else that may pass on retry (timeouts, network, browser crash). */
export class TransientPlatformError extends PlatformError {
  override readonly transient = true;
}
/** The platform does not give this kind of login that capability (XHS creator login: no inbox). Not an account failure. */
export class UnavailableError extends PlatformError {}
/** The login state is unknown or gone (process restarted, QR expired). */
export class LoginGoneError extends PlatformError {}

/** Length as the platforms count it: a CJK character (or any non-ASCII) counts 1, two ASCII characters count 1, rounded up. */
export function textLength(text: string): number {
  let ascii = 0;
  let wide = 0;
  for (const ch of text) {
    if (ch.codePointAt(0)! < 0x80) ascii += 1;
    else wide += 1;
  }
  return wide + Math.ceil(ascii / 2);
}

/** HTML to plain text with paragraph breaks (platform editors take text). */
export function htmlToText(html: string): string {
  if (!/<[a-z][\s\S]*>/i.test(html)) return html.trim();
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Decodes a data: URL image (the only inline form we accept) into bytes and a file name. */
export function decodeDataImage(url: string, index: number): { name: string; mimeType: string; buffer: Buffer } | null {
  const m = /^data:(image\/(png|jpe?g|gif|webp));base64,(.+)$/i.exec(url);
  if (!m) return null;
  const ext = m[2]!.toLowerCase() === 'jpeg' ? 'jpg' : m[2]!.toLowerCase();
  return { name: `image-${index + 1}.${ext}`, mimeType: m[1]!.toLowerCase(), buffer: Buffer.from(m[3]!, 'base64') };
}
