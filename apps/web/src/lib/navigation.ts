/** Lets non-React code (service-worker messages, token login, notifications) use the router. */
type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigate: Navigate = (to, opts) => {
  if (opts?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean }): void {
  navigate(to, opts);
}

/** Only same-origin paths may be navigated to from messages. */
export function safeInternalPath(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const u = new URL(url, window.location.origin);
    if (u.origin !== window.location.origin) return null;
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return null;
  }
}
