import { createHash } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';

/**
 * What creator sites see of the publisher's Chromium. Out of the box they see `HeadlessChrome/…` in the user agent,
 * `navigator.webdriver === true` and a UTC clock, and flag QR logins from it as automation
 * (docs: /work/shared/notes/platforms-2026.md, "Headless fingerprint"). Every context the pool opens presents instead
 * a desktop Chrome on Windows in mainland China, and the same one every time for the same account: a device that
 * changes its screen between visits is itself a signal.
 */

export const LOCALE = 'zh-CN';
export const TIMEZONE = 'Asia/Shanghai';
/** What Chrome sends with its UI in Simplified Chinese (Playwright's `locale` alone sends a bare `zh-CN`). */
export const ACCEPT_LANGUAGE = 'zh-CN,zh;q=0.9';
/** The same list for `Emulation.setUserAgentOverride`, which adds the q-values itself. */
const ACCEPT_LANGUAGE_LIST = 'zh-CN,zh';

/** One entry of `sec-ch-ua` (CDP's UserAgentBrandVersion). */
export interface Brand {
  brand: string;
  version: string;
}

interface Size {
  width: number;
  height: number;
}

/** The part of a fingerprint that belongs to the account's "device" and is stored with its session. */
export interface DeviceProfile {
  screen: Size;
  viewport: Size;
  deviceScaleFactor: number;
  hardwareConcurrency: number;
  geolocation: { latitude: number; longitude: number; accuracy: number };
}

export interface Fingerprint extends DeviceProfile {
  /** Always from the running engine: a user agent claiming another Chrome version than the page's features betray is worse than none. */
  userAgent: string;
  browserVersion: string;
}

/**
 * Screens in CSS pixels with the scale Windows gives them: 1536x864 is a 1920x1080 laptop panel at 125 %, 1280x720 the
 * same at 150 %. Pairs rather than free combinations, so no account claims a screen that does not exist.
 */
const SCREENS: readonly { width: number; height: number; scale: number }[] = [
  { width: 1920, height: 1080, scale: 1 },
  { width: 1536, height: 864, scale: 1.25 },
  { width: 1366, height: 768, scale: 1 },
  { width: 1440, height: 900, scale: 1 },
  { width: 1280, height: 800, scale: 1 },
  { width: 1280, height: 800, scale: 2 },
  { width: 1280, height: 720, scale: 1.5 },
];
/** A maximised Chrome on Windows: the taskbar (40) and the tab strip with the toolbar (71) come off the screen height. */
const WINDOW_CHROME_HEIGHT = 111;
const CORES = [4, 8, 8, 12, 16] as const;
const CITIES = [
  { latitude: 31.2304, longitude: 121.4737 }, // 上海
  { latitude: 39.9042, longitude: 116.4074 }, // 北京
  { latitude: 30.2741, longitude: 120.1551 }, // 杭州
  { latitude: 23.1291, longitude: 113.2644 }, // 广州
  { latitude: 22.5431, longitude: 114.0579 }, // 深圳
  { latitude: 30.5728, longitude: 104.0668 }, // 成都
] as const;

/** A Chrome-on-Windows user agent of the engine's major version; Chrome reports `.0.0.0` for the rest since version 101. */
export function userAgentFor(browserVersion: string): string {
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${majorOf(browserVersion)}.0.0.0 Safari/537.36`;
}

function majorOf(browserVersion: string): number {
  const major = Number(/^(\d+)\./.exec(browserVersion)?.[1]);
  if (!Number.isInteger(major) || major <= 0) throw new Error(`not a Chromium version: ${browserVersion}`);
  return major;
}

/**
 * Chrome's brand list for `major`, grease brand included, in Chrome's own order (GenerateBrandVersionList in
 * components/embedder_support/user_agent_utils.cc, seeded with the major version): the list a real Chrome of that
 * version sends in `sec-ch-ua`, so ours does not stand out by its shape.
 */
export function brandsFor(browserVersion: string, full = false): Brand[] {
  const major = majorOf(browserVersion);
  const chars = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
  const greaseVersion = ['8', '99', '24'][major % 3]!;
  const grease = { brand: `Not${chars[major % chars.length]}A${chars[(major + 1) % chars.length]}Brand`, version: full ? `${greaseVersion}.0.0.0` : greaseVersion };
  const version = full ? browserVersion : String(major);
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ] as const;
  const order = orders[major % orders.length]!;
  const list: Brand[] = [];
  list[order[0]] = grease;
  list[order[1]] = { brand: 'Chromium', version };
  list[order[2]] = { brand: 'Google Chrome', version };
  return list;
}

/** The account's device, picked deterministically from `key` (`acct:<id>`, or a login page's key). */
export function deviceProfileFor(key: string): DeviceProfile {
  const h = createHash('sha256').update(key).digest();
  const screen = SCREENS[h[0]! % SCREENS.length]!;
  const city = CITIES[h[2]! % CITIES.length]!;
  // Within ~5 km of the city centre, to 4 decimals like a browser's network location.
  const jitter = (b: number) => (b / 255 - 0.5) * 0.1;
  return {
    screen: { width: screen.width, height: screen.height },
    viewport: { width: screen.width, height: screen.height - WINDOW_CHROME_HEIGHT },
    deviceScaleFactor: screen.scale,
    hardwareConcurrency: CORES[h[1]! % CORES.length]!,
    geolocation: {
      latitude: Math.round((city.latitude + jitter(h[3]!)) * 1e4) / 1e4,
      longitude: Math.round((city.longitude + jitter(h[4]!)) * 1e4) / 1e4,
      accuracy: 20 + (h[5]! % 130),
    },
  };
}

export function withBrowser(profile: DeviceProfile, browserVersion: string): Fingerprint {
  return { ...profile, userAgent: userAgentFor(browserVersion), browserVersion };
}

/** The fingerprint of `key` on a browser of `browserVersion` (`browser.version()`). */
export function fingerprintFor(key: string, browserVersion: string): Fingerprint {
  return withBrowser(deviceProfileFor(key), browserVersion);
}

const num = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const size = (v: unknown): v is Size => typeof v === 'object' && v !== null && num((v as Size).width, 320, 7680) && num((v as Size).height, 240, 4320);

/** A device profile stored with a session, or null when it is absent or not one (then the account's derived one is used). */
export function parseDeviceProfile(value: unknown): DeviceProfile | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<DeviceProfile>;
  const g = p.geolocation;
  if (!size(p.screen) || !size(p.viewport) || !num(p.deviceScaleFactor, 0.5, 4) || !num(p.hardwareConcurrency, 1, 128)) return null;
  if (typeof g !== 'object' || g === null || !num(g.latitude, -90, 90) || !num(g.longitude, -180, 180) || !num(g.accuracy, 0, 100_000)) return null;
  return {
    screen: { width: p.screen.width, height: p.screen.height },
    viewport: { width: p.viewport.width, height: p.viewport.height },
    deviceScaleFactor: p.deviceScaleFactor,
    hardwareConcurrency: p.hardwareConcurrency,
    geolocation: { latitude: g.latitude, longitude: g.longitude, accuracy: g.accuracy },
  };
}

type StorageState = Exclude<Exclude<Parameters<Browser['newContext']>[0], undefined>['storageState'], string | undefined>;

/**
 * A session blob (the storage state JSON a login saved) split into what Playwright takes and the device profile stored
 * beside it. The `fingerprint` field is removed: `newContext` is not to be trusted with fields it does not know.
 */
export function splitSession(session: string | null): { storageState: StorageState | undefined; profile: DeviceProfile | null } {
  if (!session) return { storageState: undefined, profile: null };
  const { fingerprint, ...storageState } = JSON.parse(session) as StorageState & { fingerprint?: unknown };
  return { storageState, profile: parseDeviceProfile(fingerprint) };
}

/** `browser.newContext` options presenting `fp`; the user agent metadata and `navigator.platform` go per page (disguisePage). */
export function contextOptions(fp: Fingerprint) {
  return {
    userAgent: fp.userAgent,
    locale: LOCALE,
    timezoneId: TIMEZONE,
    viewport: fp.viewport,
    screen: fp.screen,
    deviceScaleFactor: fp.deviceScaleFactor,
    // Granted for every origin of the context: the site's own location prompt would otherwise cover the page.
    geolocation: fp.geolocation,
    permissions: ['geolocation'],
    // Requests Playwright sends with its own override (iframes, favicons) carry Chrome's list too, not a bare `zh-CN`.
    extraHTTPHeaders: { 'Accept-Language': ACCEPT_LANGUAGE },
  } satisfies Parameters<Browser['newContext']>[0];
}

/** `Emulation.setUserAgentOverride` for `fp`: Playwright's own override sends no Chrome brand and leaves `navigator.platform` at Linux. */
export function userAgentOverride(fp: Fingerprint) {
  return {
    userAgent: fp.userAgent,
    acceptLanguage: ACCEPT_LANGUAGE_LIST,
    platform: 'Win32',
    userAgentMetadata: {
      brands: brandsFor(fp.browserVersion),
      fullVersionList: brandsFor(fp.browserVersion, true),
      fullVersion: fp.browserVersion,
      platform: 'Windows',
      platformVersion: '10.0.0',
      architecture: 'x86',
      bitness: '64',
      model: '',
      mobile: false,
      wow64: false,
    },
  };
}

/**
 * Applies the per-page part of `fp` to `page` through a CDP session kept open for the page's life (CDP emulation ends
 * with the session that set it).
 */
export async function disguisePage(context: BrowserContext, page: Parameters<BrowserContext['newCDPSession']>[0], fp: Fingerprint): Promise<void> {
  const cdp = await context.newCDPSession(page);
  // Sent together (one round trip, not two): every page of every publish waits for them.
  await Promise.all([
    cdp.send('Emulation.setUserAgentOverride', userAgentOverride(fp)),
    // Newer than the rest of the protocol; a Chromium without it still presents the rest.
    cdp.send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: fp.hardwareConcurrency }).catch(() => undefined),
  ]);
}
