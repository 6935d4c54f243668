import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ensureDeviceId, rememberParams, touchDailyMarker, withoutParam } from './lib/startup-params';
import { mobileRedirectTarget } from './lib/mobile';
import { LS, lsGet } from './lib/storage-keys';
import { loadFlags } from './features/flags/flags';
import { startTelemetry } from './features/telemetry/telemetry';
import { readCachedAccount } from './features/session/session';
import { useGlobalStore } from './stores/global';
import './styles.css';
import { settle } from './api/request';

/** Phone browsers: an activity code goes to /activity, anything else to the mobile home page. */
const MOBILE_HOME_URL: string = import.meta.env.VITE_MOBILE_HOME_URL || '/activity';

function start(): void {
  startTelemetry(
    {
      sentryDsn: import.meta.env.VITE_SENTRY_DSN,
      environment: import.meta.env.VITE_SENTRY_ENVIRONMENT,
      monitorUrl: import.meta.env.VITE_MONITOR_URL,
      ipLookupUrl: import.meta.env.VITE_IP_LOOKUP_URL,
    },
    () => readCachedAccount()?.id ?? null,
  );
  try {
    rememberParams(window.location.search, localStorage);
    ensureDeviceId(localStorage, () => crypto.randomUUID());
    touchDailyMarker(localStorage, new Date());
  } catch {
    // Storage unavailable: the app still runs, it just forgets.
  }
  // The one-time token must not stay in the address (history, screenshots, referrers).
  if (new URLSearchParams(window.location.search).has('accessToken')) {
    window.history.replaceState(window.history.state, '', withoutParam(window.location.href, 'accessToken'));
  }

  const target = mobileRedirectTarget(navigator.userAgent, window.location.pathname, window.location.search, MOBILE_HOME_URL);
  if (target) {
    const url = new URL(target, window.location.origin);
    if (url.origin !== window.location.origin) {
      window.location.replace(url.toString());
      return;
    }
    window.history.replaceState(null, '', `${url.pathname}${url.search}`);
  }

  // Without a token or a hand-over token the session is known at once: no boot screen.
  if (!lsGet(LS.tokenValue) && !lsGet(LS.accessToken)) useGlobalStore.getState().setLogin(false);
  settle(loadFlags());

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

start();
