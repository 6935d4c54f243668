import { limits } from '@inkstone/shared';
import { DEFAULT_TOKEN_NAME, LS, lsGet } from '../lib/storage-keys';
import { bypassesApiBase } from './error-policy';

/**
 * The HTTP client under request(): fetch (XMLHttpRequest for an upload that reports progress), with the conventions
 * the request layer relies on, as axios had them: `/api` base unless the path bypasses it, the session and device
 * headers, JSON bodies, query params, a timeout per call (300 s by default), and failures shaped as axios's were
 * (`code` ECONNABORTED for a timeout, ERR_CANCELED for an abort, ERR_NETWORK for no reply, ERR_BAD_RESPONSE or
 * ERR_BAD_REQUEST with the `response` for a non-2xx reply).
 */
export interface HttpOptions {
  method?: string;
  url?: string;
  /** Query parameters (null and undefined left out; arrays as `key[]`, as axios sent them). */
  params?: object;
  /** A FormData, Blob or string goes as it is; anything else as JSON. */
  data?: unknown;
  /** Extra headers; an undefined value removes a default. */
  headers?: Record<string, string | undefined>;
  timeout?: number;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'arraybuffer';
  onUploadProgress?: (e: { loaded: number; total?: number }) => void;
  /** Replaces the network for this call (tests). */
  adapter?: HttpAdapter;
}

/** What an adapter receives: the call resolved (method in lower case, body serialised, headers merged). */
export interface HttpConfig {
  method: string;
  url: string;
  baseURL: string;
  params?: object;
  data?: FormData | Blob | string;
  headers: Record<string, string>;
  timeout: number;
  signal?: AbortSignal;
  responseType: 'json' | 'blob' | 'arraybuffer';
  onUploadProgress?: (e: { loaded: number; total?: number }) => void;
}

export interface HttpResponse<T = unknown> {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  data: T;
}

export type HttpAdapter = (config: HttpConfig) => Promise<HttpResponse>;

type HttpError = Error & { code: string; response?: HttpResponse };
const httpError = (code: string, message: string, response?: HttpResponse): HttpError =>
  Object.assign(new Error(message), { code, response, name: code === 'ERR_CANCELED' ? 'CanceledError' : 'AxiosError' });

/** axios's encoding of query values (a few characters stay readable). */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+').replace(/%5B/gi, '[').replace(/%5D/gi, ']');

export function buildUrl(config: Pick<HttpConfig, 'baseURL' | 'url' | 'params'>): string {
  const { baseURL, url, params } = config;
  let full = /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url) || !baseURL ? url : `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) continue;
    const [name, values] = Array.isArray(value) ? [`${key}[]`, value as unknown[]] : [key, [value]];
    for (const v of values) {
      const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
      parts.push(`${encode(name)}=${encode(text)}`);
    }
  }
  if (parts.length) {
    const hash = full.indexOf('#');
    if (hash !== -1) full = full.slice(0, hash);
    full += (full.includes('?') ? '&' : '?') + parts.join('&');
  }
  return full;
}

/** A text reply is JSON when it parses, as axios read it; otherwise the text itself. */
function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function fetchAdapter(config: HttpConfig): Promise<HttpResponse> {
  if (config.signal?.aborted) throw httpError('ERR_CANCELED', 'canceled');
  const ctl = new AbortController();
  let timedOut = false;
  const timer = config.timeout > 0 ? setTimeout(() => ((timedOut = true), ctl.abort()), config.timeout) : undefined;
  const onAbort = () => ctl.abort();
  config.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetch(buildUrl(config), { method: config.method.toUpperCase(), headers: config.headers, body: config.data, signal: ctl.signal });
    const data = config.responseType === 'blob' ? await res.blob() : config.responseType === 'arraybuffer' ? await res.arrayBuffer() : parseText(await res.text());
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    return { status: res.status, headers, data };
  } catch {
    if (timedOut) throw httpError('ECONNABORTED', `timeout of ${config.timeout}ms exceeded`);
    if (config.signal?.aborted) throw httpError('ERR_CANCELED', 'canceled');
    throw httpError('ERR_NETWORK', 'Network Error');
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener('abort', onAbort);
  }
}

/** fetch cannot report upload progress: XMLHttpRequest does. */
function xhrAdapter(config: HttpConfig): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    if (config.signal?.aborted) return reject(httpError('ERR_CANCELED', 'canceled'));
    const xhr = new XMLHttpRequest();
    xhr.open(config.method.toUpperCase(), buildUrl(config));
    for (const [name, value] of Object.entries(config.headers)) xhr.setRequestHeader(name, value);
    xhr.timeout = config.timeout;
    xhr.responseType = config.responseType === 'json' ? 'text' : config.responseType;
    xhr.upload.onprogress = (e) => config.onUploadProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });
    const onAbort = () => xhr.abort();
    config.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => config.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const headers: Record<string, string> = {};
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: xhr.status, headers, data: config.responseType === 'json' ? parseText(xhr.responseText) : xhr.response });
    };
    xhr.onerror = () => (done(), reject(httpError('ERR_NETWORK', 'Network Error')));
    xhr.ontimeout = () => (done(), reject(httpError('ECONNABORTED', `timeout of ${config.timeout}ms exceeded`)));
    xhr.onabort = () => (done(), reject(httpError('ERR_CANCELED', 'canceled')));
    xhr.send(config.data ?? null);
  });
}

const defaultAdapter: HttpAdapter = (config) => (config.onUploadProgress ? xhrAdapter(config) : fetchAdapter(config));

function serialise(data: unknown): FormData | Blob | string | undefined {
  if (data === undefined) return undefined;
  if (data instanceof FormData || data instanceof Blob || typeof data === 'string') return data;
  return JSON.stringify(data);
}

export const http = {
  defaults: {
    baseURL: '/api',
    timeout: limits.defaultRequestTimeoutMs,
    headers: { Accept: 'application/json, text/plain, */*', 'Content-Type': 'application/json' } as Record<string, string>,
    adapter: defaultAdapter,
  },

  /** Resolves with any 2xx reply; rejects with an axios-shaped error otherwise. */
  async request<T = unknown>(options: HttpOptions): Promise<HttpResponse<T>> {
    const url = options.url ?? '';
    const data = serialise(options.data);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...http.defaults.headers, ...options.headers })) if (value !== undefined) headers[name] = value;
    // No body, or a multipart one whose boundary the browser sets: no JSON content type.
    if (data === undefined || data instanceof FormData) delete headers['Content-Type'];
    const tokenValue = lsGet(LS.tokenValue);
    if (tokenValue) headers[lsGet(LS.tokenName) || DEFAULT_TOKEN_NAME] = tokenValue;
    const duid = lsGet(LS.duid);
    if (duid) headers['x-device-id'] = duid;
    const config: HttpConfig = {
      method: (options.method ?? 'get').toLowerCase(),
      url,
      baseURL: bypassesApiBase(url) ? '' : http.defaults.baseURL,
      params: options.params,
      data,
      headers,
      timeout: options.timeout ?? http.defaults.timeout,
      signal: options.signal,
      responseType: options.responseType ?? 'json',
      onUploadProgress: options.onUploadProgress,
    };
    const res = await (options.adapter ?? http.defaults.adapter)(config);
    if (res.status < 200 || res.status >= 300) {
      throw httpError(res.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST', `Request failed with status code ${res.status}`, res);
    }
    return res as HttpResponse<T>;
  },

  get<T = unknown>(url: string, options: Omit<HttpOptions, 'url' | 'method'> = {}): Promise<HttpResponse<T>> {
    return http.request<T>({ ...options, url, method: 'get' });
  },
};
