import { ErrorCode, limits } from '@inkstone/shared';

/** Exact user-facing strings of spec section 8. */
export const MSG = {
  serverBusy: '服务器开小差中，请稍后再试',
  timeout: '请求超时，请稍后再试',
  sensitive: '描述词存在敏感内容',
  operationFailed: '操作失败',
  noImageResults: '暂无图片搜索结果',
  uploadFailed: '上传失败',
  offline: '网络已断开，请检查网络连接',
} as const;

/**
 * Calls of spec section 4 that run without the user asking: a 401/430 on them logs the user out
 * quietly instead of opening the login modal, and their failures never toast.
 */
const BACKGROUND_PATTERNS: RegExp[] = [
  /^\/auth\/isLogin$/,
  /^\/auth\/nowLoginUser$/,
  /^\/agent\/config$/,
  /^\/vip\/activity\/config$/,
  /^\/user\/setting\/list$/,
  /^\/user\/event\/report$/,
  /^\/vip\/user\/score$/,
  /^\/vip\/score\/point\/consume$/,
  /^\/topic\/v3\//,
  /^\/notice\/v2\/list$/,
  /^\/mp\/task\/create$/,
  // The writing-style home calls: home/v2, homepage/words/v2, homepage/input and its save.
  /^\/writing\/style\/(home\/|homepage\/|save\/homepage\/)/,
  /^\/mpTopic\/v2\/festival$/,
  /^\/xiaohui\/conversation\/start$/,
  /^\/graphic\/task\/info$/,
  /^\/graphic\/recommend\/topic$/,
  /^\/hot-?update\/.*download/i,
  /^\/spark\/feedback\/config\/list$/,
  /^\/operation\/task\/progress$/,
];

/** The path of a request URL relative to the API base: no origin, no `/api` prefix, no query. */
export function apiPath(url: string): string {
  let path = url;
  const scheme = path.indexOf('://');
  if (scheme >= 0) {
    const slash = path.indexOf('/', scheme + 3);
    path = slash >= 0 ? path.slice(slash) : '/';
  }
  path = path.split(/[?#]/)[0] ?? '';
  if (!path.startsWith('/')) path = `/${path}`;
  if (path === '/api' || path.startsWith('/api/')) path = path.slice(4) || '/';
  return path;
}

/**
 * User-started calls whose failures the spec keeps quiet (section 8: binding an account rejects
 * without a message; the binding dialog explains the failure itself). Unlike background calls, a
 * 401/430 on them still opens the login modal.
 */
const SILENT_REJECT_PATTERNS: RegExp[] = [/^\/publish\/v4\/account\/bind$/];

export function isSilentRejectUrl(url: string): boolean {
  const path = apiPath(url);
  return SILENT_REJECT_PATTERNS.some((re) => re.test(path));
}

export function isBackgroundUrl(url: string): boolean {
  const path = apiPath(url);
  return BACKGROUND_PATTERNS.some((re) => re.test(path));
}

/** `/publish-api` paths are served outside `/api` (spec section 7). */
export function bypassesApiBase(url: string): boolean {
  return apiPath(url).startsWith('/publish-api');
}

export function hasSparkNavigate(search: string): boolean {
  return new URLSearchParams(search).has('sparkNavigate');
}

export type CodeAction =
  | { kind: 'resolve' }
  | { kind: 'login'; openModal: boolean }
  | { kind: 'silent' }
  | { kind: 'lackPoints' }
  | { kind: 'message'; level: 'error' | 'warning'; text: string; durationS: number }
  | { kind: 'notification'; title: string; description: string; durationS: number };

/** What the client does with an envelope's `code` (spec section 8). */
export function actionForCode(code: number, msg: string | undefined, ctx: { background: boolean; sparkNavigate: boolean }): CodeAction {
  const text = msg?.trim() ?? '';
  switch (code) {
    case ErrorCode.OK:
    case ErrorCode.PASSTHROUGH:
      return { kind: 'resolve' };
    case ErrorCode.NOT_LOGGED_IN:
    case ErrorCode.SESSION_REVOKED:
      return { kind: 'login', openModal: !ctx.background && !ctx.sparkNavigate };
    case ErrorCode.SILENT_REJECT:
    case ErrorCode.SILENT_REJECT_2:
      return { kind: 'silent' };
    case ErrorCode.SENSITIVE_CONTENT:
      return { kind: 'message', level: 'warning', text: MSG.sensitive, durationS: 3 };
    case ErrorCode.OPERATION_FAILED:
      return { kind: 'notification', title: MSG.operationFailed, description: text || MSG.noImageResults, durationS: 5 };
    case ErrorCode.SERVER_ERROR:
      return { kind: 'message', level: 'error', text: MSG.serverBusy, durationS: 3 };
    case ErrorCode.POINTS_INSUFFICIENT:
      // Spec section 4: the lackPoints prompt replaces the toast, for background calls too (a
      // writing task started from the home input is one), since the user must learn why it stopped.
      return { kind: 'lackPoints' };
    default:
      // 905, 912 and every other code show the server's message.
      return { kind: 'message', level: 'error', text: text || MSG.operationFailed, durationS: 3 };
  }
}

export type TransportKind = 'timeout' | 'cancel' | 'network' | 'other';

/** Classifies a failure that carries no envelope (the HTTP client shapes its errors as axios did, api/http.ts). */
export function classifyTransportError(err: { code?: string; message?: string; name?: string; response?: unknown }): TransportKind {
  if (err.name === 'CanceledError' || err.name === 'AbortError' || err.code === 'ERR_CANCELED') return 'cancel';
  if (err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT' || /timeout/i.test(err.message ?? '')) return 'timeout';
  if (err.code === 'ERR_NETWORK' || (!err.response && err.code !== 'ERR_BAD_RESPONSE')) return 'network';
  return 'other';
}

export function transportMessage(kind: TransportKind): string | null {
  if (kind === 'timeout') return MSG.timeout;
  if (kind === 'other') return MSG.serverBusy;
  return null;
}

/** Suppresses a second message for the same URL inside the window (spec section 8: 500 ms). */
export function createDeduper(windowMs: number = limits.errorDedupeWindowMs) {
  const last = new Map<string, number>();
  return (url: string, now: number): boolean => {
    const key = apiPath(url);
    const prev = last.get(key);
    if (prev !== undefined && now - prev < windowMs) return false;
    last.set(key, now);
    if (last.size > 200) {
      for (const [k, t] of last) if (now - t >= windowMs) last.delete(k);
    }
    return true;
  };
}

/** File name from a content-disposition header (RFC 6266 `filename*` first). */
export function filenameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      return star[1].trim();
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain?.[2] ?? plain?.[1];
  return name ? name.trim() : null;
}

export interface LackPointsInfo {
  iDataEventId: string | null;
  balance: number | null;
  need: number | null;
}

/** Reads a 1501 reply's data defensively: the prompt must open even if the server sent less. */
export function lackPointsFrom(data: unknown): LackPointsInfo {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const id = d.iDataEventId;
  return {
    iDataEventId: typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : null,
    balance: num(d.balance),
    need: num(d.need),
  };
}

/** The 933 reply's data when it names the words (older replies carry none: then there is nothing to show but the toast). */
export function sensitiveFrom(data: unknown): { words: string[]; where: string; suggestions: string[] } | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as { words?: unknown; where?: unknown; suggestions?: unknown };
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const words = strings(d.words);
  if (!words.length) return null;
  return { words, where: typeof d.where === 'string' ? d.where : '', suggestions: strings(d.suggestions) };
}
