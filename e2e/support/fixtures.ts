import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

let seq = 0;
const uniq = () => (Date.now() % 1_000_000) * 100 + (seq++ % 100) + process.pid;

/** Distinct 11-digit numbers per test (13/15/18 prefixes), so SMS limits never collide. */
export function randomPhone(): string {
  const prefix = ['13', '15', '18'][seq % 3]!;
  const body = String(uniq() * 7 + Math.floor(Math.random() * 1000))
    .slice(-9)
    .padStart(9, '0');
  return `${prefix}${body}`;
}

const randomIp = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

export const test = base.extend({
  // Playwright needs the destructuring pattern to see the fixture's (absent) dependencies.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL missing: run through e2e/playwright.config.ts');
    await use(url);
  },
  // TRUST_PROXY is on: each test looks like its own client to the per-IP limits.
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'x-forwarded-for': randomIp() });
  },
});
export { expect };

export interface Session {
  tokenName: string;
  tokenValue: string;
  phone: string;
  user: { id: number; nickname: string; userProfile: boolean };
}

export async function latestCode(request: APIRequestContext, phone: string): Promise<string> {
  const res = await request.get(`/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { code: number; data: { code: string }[] };
  expect(body.code).toBe(0);
  expect(body.data.length).toBeGreaterThan(0);
  return body.data[0]!.code;
}

/** Logs a new user in through the real API; optionally completes the profile so no modal pops up. */
export async function apiLogin(request: APIRequestContext, opts: { phone?: string; fillProfile?: boolean } = {}): Promise<Session> {
  const phone = opts.phone ?? randomPhone();
  const sent = await (await request.get(`/api/auth/send/msg?phone=${phone}`)).json();
  expect(sent.code, JSON.stringify(sent)).toBe(0);
  const code = await latestCode(request, phone);
  const res = await (await request.post('/api/auth/doLogin0', { data: { phone, code } })).json();
  expect(res.code, JSON.stringify(res)).toBe(0);
  const session: Session = { ...res.data, phone };
  if (opts.fillProfile !== false) {
    const filled = await (
      await request.post('/api/user/fill/info', {
        headers: { [session.tokenName]: session.tokenValue },
        data: { creatorType: 'personal', industries: ['科技'], customIndustries: [], creationPlatform: ['xiaohongshu'] },
      })
    ).json();
    expect(filled.code).toBe(0);
  }
  return session;
}

/** Puts the session into localStorage before the app loads (once per tab, so a logout sticks). */
export async function seedSession(page: Page, s: Pick<Session, 'tokenName' | 'tokenValue'> | null, extra: Record<string, string> = {}) {
  await page.addInitScript(
    ({ s, extra }) => {
      if (sessionStorage.getItem('__e2e_seeded')) return;
      sessionStorage.setItem('__e2e_seeded', '1');
      localStorage.setItem('tour:home:done', '1');
      if (s) {
        localStorage.setItem('tokenName', s.tokenName);
        localStorage.setItem('tokenValue', s.tokenValue);
      }
      for (const [k, v] of Object.entries(extra)) localStorage.setItem(k, v);
    },
    { s: s ? { tokenName: s.tokenName, tokenValue: s.tokenValue } : null, extra },
  );
}

/** The track (赛道) the e2e server's FEATURES_FILE targets agent-state on (global-setup.ts); no other spec picks it. */
export const AGENT_BETA_TRACK = '智能体内测';

/** The agent-state flag on: the only stubbed payload in the route specs (the server's remote evaluation answer). */
export async function flagOn(page: Page) {
  await page.route('**/api/eval/*', (route) => route.fulfill({ json: { features: { 'agent-state': { defaultValue: true } } } }));
}

export async function mintHandoverToken(request: APIRequestContext, s: Session): Promise<string> {
  const res = await (await request.post('/api/auth/spark/token', { headers: { [s.tokenName]: s.tokenValue } })).json();
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data.accessToken as string;
}

/** Records notifications the page shows (OS notifications cannot be observed headless); read them with `shownNotifications`. */
export async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    const shown: { title: string; body: string }[] = [];
    (window as unknown as { __shown: typeof shown }).__shown = shown;
    ServiceWorkerRegistration.prototype.showNotification = async function (title: string, opts?: NotificationOptions) {
      shown.push({ title, body: opts?.body ?? '' });
    };
    const Original = window.Notification;
    class Recorded extends EventTarget {
      static get permission() {
        return Original.permission;
      }
      static requestPermission = Original.requestPermission.bind(Original);
      constructor(title: string, opts?: NotificationOptions) {
        super();
        shown.push({ title, body: opts?.body ?? '' });
      }
      close() {}
    }
    (window as unknown as { Notification: unknown }).Notification = Recorded;
  });
}

export const shownNotifications = (page: Page) => page.evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown);

/**
 * Opens the header's user menu and returns it once it can take a click. The menu code loads after first
 * paint (the button is a disabled placeholder until then), and antd keeps a closed menu in the DOM: only
 * the open one is returned, so a click never lands on a stale or not yet mounted menu.
 */
export async function openUserMenu(page: Page) {
  const trigger = page.getByTestId('user-menu');
  await expect(trigger).toBeEnabled();
  await trigger.click();
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}
