import { ErrorCode } from '@inkstone/shared';
import { DEFAULT_TOKEN_NAME, LS, lsGet } from '../lib/storage-keys';
import {
  actionForCode,
  apiPath,
  classifyTransportError,
  createDeduper,
  filenameFromDisposition,
  hasSparkNavigate,
  isBackgroundUrl,
  isSilentRejectUrl,
  transportMessage,
  type TransportKind,
} from './error-policy';
import { http, type HttpOptions, type HttpResponse } from './http';

export interface RequestOptions extends HttpOptions {
  /** No toasts for this call (polling); 401/430 still log out and may open the login modal. */
  silent?: boolean;
  /** Codes this caller handles itself: rejected without any message (e.g. 1002 for an API not built yet). */
  quietCodes?: number[];
}

export type Envelope<T> = { code: number; msg: string; data: T };

export class ApiError extends Error {
  constructor(
    readonly kind: 'code' | TransportKind,
    readonly code: number | null,
    message: string,
    readonly url: string,
    /** The envelope's `data` on code errors (e.g. 1501 carries {iDataEventId, balance, need}). */
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

export interface DownloadResult {
  blob: Blob;
  filename: string | null;
  response: HttpResponse<Blob>;
}

/** The UI hooks the request layer drives; installed by the app so this module stays free of antd. */
export interface RequestUi {
  message(level: 'error' | 'warning', text: string, durationS: number): void;
  notify(title: string, description: string, durationS: number): void;
  authLost(openModal: boolean): void;
  /** Code 1501: open the lackPoints prompt with the reply's data. */
  lackPoints?(data: unknown): void;
  /** Code 933 with its words: open the sensitive-content modal (which words, where, what to change). */
  sensitive?(data: unknown): void;
}
let ui: RequestUi = { message: () => {}, notify: () => {}, authLost: () => {} };
export function installRequestUi(next: RequestUi): void {
  ui = next;
}

const shouldShow = createDeduper();
const LOG_COLLECT = '/engine/v2/log/collect';

function show(url: string, fn: () => void): void {
  if (shouldShow(url, Date.now())) fn();
}

/** Fire and forget: every non-zero code goes to analytics, outside the error handling itself. */
export function reportApiCode(url: string, code: number, msg: string): void {
  if (apiPath(url) === LOG_COLLECT) return;
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const tokenValue = lsGet(LS.tokenValue);
    if (tokenValue) headers[lsGet(LS.tokenName) || DEFAULT_TOKEN_NAME] = tokenValue;
    void fetch(`/api${LOG_COLLECT}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'api-code', url: apiPath(url), code, msg }),
      keepalive: true,
    }).catch(() => {});
  } catch {
    // Analytics must never disturb the caller.
  }
}

/**
 * For a promise an event handler or effect starts and nobody awaits: its failure reaches the user instead of becoming
 * an unhandled rejection. An ApiError has already been shown by request() (or deliberately kept quiet by its caller);
 * anything else gets a generic message and goes to the error reporter.
 */
export function settle(task: Promise<unknown> | undefined): void {
  task?.catch((e: unknown) => {
    if (isApiError(e)) return;
    ui.message('error', '操作失败，请稍后重试', 3);
    if (typeof globalThis.reportError === 'function') globalThis.reportError(e);
  });
}

function isEnvelope(v: unknown): v is Envelope<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';
}

/**
 * Every API call goes through here. Resolves with `data` on code 0 (and 10041), with the whole
 * download on content-disposition responses, and rejects with ApiError otherwise, after showing
 * what spec section 8 says to show.
 */
export async function request<T>(options: RequestOptions): Promise<T> {
  const { silent = false, quietCodes, ...config } = options;
  const url = config.url ?? '';
  const background = isBackgroundUrl(url);
  const quiet = silent || background || isSilentRejectUrl(url);
  let res: HttpResponse;
  try {
    res = await http.request(config);
  } catch (raw) {
    const err = raw as { code?: string; message?: string; name?: string; response?: HttpResponse };
    // Non-2xx replies that still carry an envelope follow the code rules below.
    if (err.response && isEnvelope(err.response.data)) {
      res = err.response;
    } else {
      const kind = classifyTransportError(err);
      const text = transportMessage(kind);
      if (text && !quiet) show(url, () => ui.message('error', text, 3));
      throw new ApiError(kind, null, text ?? (kind === 'cancel' ? '请求已取消' : '网络连接失败'), url);
    }
  }

  if (res.headers['content-disposition']) {
    const blob = res.data instanceof Blob ? res.data : new Blob([res.data as BlobPart]);
    return { blob, filename: filenameFromDisposition(String(res.headers['content-disposition'])), response: res } as T;
  }

  const body: unknown = res.data;
  if (!isEnvelope(body)) {
    if (!quiet) show(url, () => ui.message('error', '服务器开小差中，请稍后再试', 3));
    throw new ApiError('other', null, '响应格式不正确', url);
  }
  if (body.code !== 0) reportApiCode(url, body.code, body.msg);

  const action = actionForCode(body.code, body.msg, { background, sparkNavigate: hasSparkNavigate(window.location.search) });
  if (action.kind === 'resolve') return body.data as T;
  if (action.kind === 'login') {
    ui.authLost(action.openModal);
  } else if (action.kind === 'lackPoints') {
    if (!quietCodes?.includes(body.code)) ui.lackPoints?.(body.data);
  } else if (!quiet && !quietCodes?.includes(body.code)) {
    if (action.kind === 'message') show(url, () => ui.message(action.level, action.text, action.durationS));
    if (action.kind === 'notification') show(url, () => ui.notify(action.title, action.description, action.durationS));
  }
  // Even a background call (a writing task) opens it: the user must learn which words to change.
  if (body.code === ErrorCode.SENSITIVE_CONTENT && !quietCodes?.includes(body.code)) ui.sensitive?.(body.data);
  throw new ApiError('code', body.code, body.msg, url, body.data ?? null);
}
