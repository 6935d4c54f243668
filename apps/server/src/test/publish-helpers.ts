import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoginConnectReply, LoginScanReply, PlatformAccount, PublishResultReply } from '@inkstone/shared';
import { startTestApp, type TestApp } from './app.js';
import type { TestDbKind } from './database.js';

/** 1x1 PNG as a data: URL: the smallest image a publish form accepts. */
export const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The app with only the sandbox platform, short retry backoff, screenshots in a temp directory. */
export function startPublishApp(db: TestDbKind = 'pglite', env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({
    db,
    env: {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkstone-publish-')),
      PUBLISH_PLATFORMS: 'sandbox',
      PUBLISH_RETRY_BACKOFF_MS: '300',
      PUBLISH_ENGAGEMENT_INTERVAL_MS: '3600000',
      BROWSER_MAX_CONTEXTS: '2',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
  });
}

export const publishApi = (t: TestApp, p: string) => `${t.url}/publish-api${p}`;

export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, stepMs = 250): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** The phone: opens the page the QR encodes and confirms as `identity` (plain HTTP, no browser). */
export async function confirmOnPhone(scanUrl: string, identity: string): Promise<void> {
  const page = await fetch(scanUrl);
  if (!page.ok) throw new Error(`phone page HTTP ${page.status}`);
  const ticket = new URL(scanUrl).searchParams.get('ticket')!;
  const res = await fetch(new URL('/sandbox-platform/m/confirm', scanUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, identity }).toString(),
  });
  if (!(await res.text()).includes('已确认登录')) throw new Error('phone confirmation refused');
}

/** Binds a sandbox account through the HTTP API, exactly as the web client does. */
export async function bindSandboxAccount(t: TestApp, token: string, identity: string): Promise<PlatformAccount> {
  const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'sandbox' } });
  if (conn.code !== 0) throw new Error(`connect: ${conn.msg}`);
  const q = { connectionId: conn.data.connectionId };
  const scan = await t.call<LoginScanReply>('GET', publishApi(t, '/chrome/login/code/scan'), { token, query: q });
  if (!scan.data.scanUrl) throw new Error('no scan url');
  // The phone page link is a path on the server the client called.
  await confirmOnPhone(new URL(scan.data.scanUrl, t.url).toString(), identity);
  await until(
    () => t.call<LoginScanReply>('GET', publishApi(t, '/chrome/login/code/scan'), { token, query: q }),
    (r) => r.data.scanState === 'confirmed',
  );
  const cookie = await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: q });
  if (cookie.code !== 0) throw new Error(`cookie: ${cookie.msg}`);
  const bound = await t.call<PlatformAccount>('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
  if (bound.code !== 0) throw new Error(`bind: ${bound.msg}`);
  return bound.data;
}

export async function waitForPublish(t: TestApp, token: string, publishId: string, done: (r: PublishResultReply) => boolean, timeoutMs = 45_000) {
  return until(async () => (await t.call<PublishResultReply>('GET', publishApi(t, '/publish/result'), { token, query: { publishId } })).data, done, timeoutMs);
}

export const allFinished = (r: PublishResultReply) => r.jobs.every((j) => j.status === 'succeeded' || j.status === 'failed');

export async function sandboxControl(t: TestApp, body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/sandbox-platform/api/_control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

export async function sandboxNotes(t: TestApp): Promise<Array<{ id: string; creatorId: string; title: string }>> {
  const res = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: Array<{ id: string; creatorId: string; title: string }> } };
  return res.data.notes;
}
