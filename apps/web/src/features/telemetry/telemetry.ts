import { limits } from '@inkstone/shared';
import { useNetworkStore } from '../../stores/network';

/**
 * The external calls of spec section 7 that only a deployment can point somewhere: third-party error
 * reporting (Sentry when a DSN is set), the monitoring POST (5 s) and the public-IP lookup. Each is
 * off unless its setting is given; nothing leaves the browser by default.
 */
export interface TelemetryConfig {
  sentryDsn?: string;
  /** Sentry `environment`. */
  environment?: string;
  monitorUrl?: string;
  ipLookupUrl?: string;
}

type Fetch = typeof fetch;

export interface SentryDsn {
  /** Where envelopes go: `<scheme>://<host><path>/api/<project>/envelope/`. */
  envelopeUrl: string;
  publicKey: string;
  dsn: string;
}

/** `https://<publicKey>@<host>[/<path>]/<projectId>`, as Sentry prints it; null when it is not one. */
export function parseSentryDsn(dsn: string): SentryDsn | null {
  let u: URL;
  try {
    u = new URL(dsn.trim());
  } catch {
    return null;
  }
  const segments = u.pathname.split('/').filter(Boolean);
  const projectId = segments.pop();
  if (!u.username || !projectId || !/^\d+$/.test(projectId) || (u.protocol !== 'https:' && u.protocol !== 'http:')) return null;
  const prefix = segments.length ? `/${segments.join('/')}` : '';
  return { envelopeUrl: `${u.protocol}//${u.host}${prefix}/api/${projectId}/envelope/`, publicKey: decodeURIComponent(u.username), dsn: dsn.trim() };
}

/** Spec section 8: error reporting runs at full trace sampling, so every error is sent and its trace marked sampled. */
export const SENTRY_SAMPLE_RATE = 1;
const SDK = { name: 'inkstone.browser', version: limits.appVersion };

const hexId = (uuid: () => string) => uuid().replace(/-/g, '');

export interface ErrorEventInput {
  error: unknown;
  url: string;
  /** Local user id, when logged in (no phone, no token: nothing secret leaves). */
  userId?: string | number | null;
}

/** The Sentry event of one error (the protocol's `exception` interface). */
function sentryEvent(input: ErrorEventInput, eventId: string, now: Date, uuid: () => string, environment?: string) {
  const err = input.error instanceof Error ? input.error : null;
  return {
    event_id: eventId,
    timestamp: now.getTime() / 1000,
    platform: 'javascript',
    level: 'error',
    release: `inkstone-web@${limits.appVersion}`,
    ...(environment ? { environment } : {}),
    sdk: SDK,
    request: { url: input.url },
    ...(input.userId != null ? { user: { id: String(input.userId) } } : {}),
    contexts: { trace: { trace_id: hexId(uuid), span_id: hexId(uuid).slice(0, 16), sampled: SENTRY_SAMPLE_RATE >= 1 } },
    exception: {
      values: [{ type: err?.name ?? 'Error', value: err ? err.message : String(input.error) }],
    },
    // The raw stack as text: the stacks of minified bundles are symbolicated on Sentry's side from uploaded source maps.
    ...(err?.stack ? { extra: { stack: err.stack } } : {}),
  };
}

/** One envelope: header line, item header line, event line (newline-delimited JSON, Sentry envelope protocol). */
export function sentryEnvelope(dsn: SentryDsn, input: ErrorEventInput, now: Date, uuid: () => string, environment?: string): string {
  const eventId = hexId(uuid);
  const event = JSON.stringify(sentryEvent(input, eventId, now, uuid, environment));
  const header = JSON.stringify({ event_id: eventId, sent_at: now.toISOString(), dsn: dsn.dsn, sdk: SDK });
  return `${header}\n${JSON.stringify({ type: 'event', content_type: 'application/json' })}\n${event}\n`;
}

export interface Telemetry {
  /** Reports an uncaught error to Sentry and the monitoring endpoint, where configured. */
  reportError(input: ErrorEventInput): Promise<void>;
  /** The public IP, or null when the lookup is off or failed. */
  lookupIp(): Promise<string | null>;
  readonly active: { sentry: boolean; monitor: boolean; ipLookup: boolean };
}

/** IPv4 or IPv6, judged by the URL parser (which normalises what it accepts). */
export function isIpAddress(s: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) {
    try {
      return new URL(`http://${s}/`).hostname === s;
    } catch {
      return false;
    }
  }
  if (!s.includes(':')) return false;
  try {
    new URL(`http://[${s}]/`);
    return true;
  } catch {
    return false;
  }
}

/** The lookup answers `{"ip": "..."}` (ipify, ip.sb and most others) or the bare address as text. */
const IP_LOOKUP_TIMEOUT_MS = limits.monitoringPostTimeoutMs;

/** A signal that aborts after `ms` on the page's own timers (AbortSignal.timeout runs on a clock of its own). */
function timeoutSignal(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

export function createTelemetry(config: TelemetryConfig, deps: { fetch?: Fetch; now?: () => Date; uuid?: () => string; ipTimeoutMs?: number } = {}): Telemetry {
  const doFetch: Fetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const now = deps.now ?? (() => new Date());
  const uuid = deps.uuid ?? (() => crypto.randomUUID());
  const dsn = config.sentryDsn ? parseSentryDsn(config.sentryDsn) : null;
  const monitorUrl = config.monitorUrl?.trim() || null;
  const ipUrl = config.ipLookupUrl?.trim() || null;

  const toSentry = async (input: ErrorEventInput) => {
    if (!dsn) return;
    // text/plain keeps it a simple request (no CORS preflight), as Sentry's own browser transport does.
    const url = `${dsn.envelopeUrl}?sentry_key=${encodeURIComponent(dsn.publicKey)}&sentry_version=7`;
    await doFetch(url, {
      method: 'POST',
      body: sentryEnvelope(dsn, input, now(), uuid, config.environment),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      keepalive: true,
    });
  };
  const toMonitor = async (input: ErrorEventInput) => {
    if (!monitorUrl) return;
    const err = input.error instanceof Error ? input.error : null;
    const body = {
      type: 'error',
      name: err?.name ?? 'Error',
      message: err ? err.message : String(input.error),
      url: input.url,
      appVersion: limits.appVersion,
      time: now().toISOString(),
    };
    // Spec section 9: the monitoring post gives up after 5 s.
    const timeout = timeoutSignal(limits.monitoringPostTimeoutMs);
    try {
      await doFetch(monitorUrl, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' }, signal: timeout.signal });
    } finally {
      timeout.clear();
    }
  };

  return {
    active: { sentry: Boolean(dsn), monitor: Boolean(monitorUrl), ipLookup: Boolean(ipUrl) },
    async reportError(input) {
      // Reporting must never raise an error of its own (it would report itself).
      await Promise.allSettled([toSentry(input), toMonitor(input)]);
    },
    async lookupIp() {
      if (!ipUrl) return null;
      try {
        const res = await doFetch(ipUrl, { headers: { accept: 'application/json, text/plain' }, signal: AbortSignal.timeout(deps.ipTimeoutMs ?? IP_LOOKUP_TIMEOUT_MS) });
        if (!res.ok) return null;
        const text = (await res.text()).trim();
        let ip = text;
        try {
          const body: unknown = JSON.parse(text);
          ip = typeof body === 'object' && body !== null && typeof (body as { ip?: unknown }).ip === 'string' ? (body as { ip: string }).ip.trim() : '';
        } catch {
          // Not JSON: the bare address.
        }
        return isIpAddress(ip) ? ip : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * Installs the configured adapters: uncaught errors and unhandled rejections are reported, and the
 * public IP is kept in the network store (spec section 3's IP). Does nothing when none is configured.
 */
export function startTelemetry(config: TelemetryConfig, userId: () => string | number | null): void {
  const t = createTelemetry(config);
  if (t.active.sentry || t.active.monitor) {
    // Fire and forget: a report that cannot be delivered has nowhere else to go, and must not raise another error here.
    const report = (error: unknown) => {
      t.reportError({ error, url: window.location.href, userId: userId() }).catch(() => {});
    };
    window.addEventListener('error', (e) => report(e.error ?? e.message));
    window.addEventListener('unhandledrejection', (e) => report(e.reason));
  }
  // Fire and forget: the IP is only shown beside diagnostics; without it the field stays empty.
  if (t.active.ipLookup)
    t.lookupIp()
      .then((ip) => ip && useNetworkStore.getState().setIP(ip))
      .catch(() => {});
}
