/** Phone browsers get the activity page or the mobile home page (spec section 2). */
export function isMobileUserAgent(ua: string): boolean {
  return /Android|iPhone|iPod|iPad|Mobile|HarmonyOS|Windows Phone/i.test(ua);
}

/**
 * Where a phone browser must go, or null to stay. `mobileHome` may be a path or an absolute URL.
 */
export function mobileRedirectTarget(ua: string, pathname: string, search: string, mobileHome: string): string | null {
  if (!isMobileUserAgent(ua)) return null;
  const params = new URLSearchParams(search);
  const channelid = params.get('channelid');
  const out = new URLSearchParams();
  if (channelid) out.set('channelid', channelid);
  for (const code of ['invitationCode', 'integralCode'] as const) {
    const value = params.get(code);
    if (value) {
      out.set(code, value);
      const target = `/activity?${out.toString()}`;
      return pathname === '/activity' && sameParams(params, out) ? null : target;
    }
  }
  if (pathname === '/activity' || pathname.startsWith('/activity/')) return null;
  const home = new URL(mobileHome, 'http://placeholder.invalid');
  if (channelid) home.searchParams.set('channelid', channelid);
  const isAbsolute = /^https?:\/\//i.test(mobileHome);
  return isAbsolute ? home.toString() : `${home.pathname}${home.search}`;
}

function sameParams(a: URLSearchParams, b: URLSearchParams): boolean {
  for (const [k, v] of b) if (a.get(k) !== v) return false;
  return true;
}
