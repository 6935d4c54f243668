/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where phone browsers are sent (path or absolute URL); defaults to /activity. */
  readonly VITE_MOBILE_HOME_URL?: string;
  /** Third-party error reporting: Sentry is on only when a DSN is set (spec section 8). */
  readonly VITE_SENTRY_DSN?: string;
  readonly VITE_SENTRY_ENVIRONMENT?: string;
  /** The external monitoring endpoint (POST, 5 s); off when unset. */
  readonly VITE_MONITOR_URL?: string;
  /** The public-IP lookup (answers {"ip"} or the bare address); off when unset. */
  readonly VITE_IP_LOOKUP_URL?: string;
}
