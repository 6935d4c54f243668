import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCode, type LoginConnectReply, type PublishResultReply } from '@inkstone/shared';
import { ConfigError, loadConfig } from './config.js';
import { createContainer } from './container.js';
import { buildApp } from './app.js';
import { openDatabase } from './db/client.js';
import { startTestApp, type TestApp } from './test/app.js';
import { loginByPhone } from './test/auth-helpers.js';
import { describeNeeding, describeOnDatabases } from './test/database.js';
import { allFinished, bindSandboxAccount, PNG_DATA_URL, publishApi, startPublishApp, waitForPublish } from './test/publish-helpers.js';

/** ROLES decides what a process does: web serves HTTP, worker runs jobs and schedules, publisher drives the browser. */

describe('ROLES parsing', () => {
  it('is a typed set, default all three', () => {
    expect([...loadConfig({}).roles].sort()).toEqual(['publisher', 'web', 'worker']);
    expect([...loadConfig({ ROLES: ' worker , publisher' }).roles].sort()).toEqual(['publisher', 'worker']);
  });

  it('refuses an unknown role with a message naming ROLES', () => {
    expect(() => loadConfig({ ROLES: 'web,wroker' })).toThrow(ConfigError);
    expect(() => loadConfig({ ROLES: 'web,wroker' })).toThrow(/ROLES.*unknown: wroker/);
    expect(() => loadConfig({ ROLES: ' , ' })).toThrow(/ROLES/);
  });
});

/** A probe job: runs only where the queue was started. */
async function probeRuns(t: TestApp): Promise<boolean> {
  let ran = false;
  t.container.jobs.register('roles.probe', async () => {
    ran = true;
  });
  await t.container.jobs.enqueue('roles.probe', {});
  const until = Date.now() + 1_000;
  while (!ran && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return ran;
}

describeOnDatabases('process roles (%s)', (db) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('without web: /healthz answers, no API, publishing, docs or sandbox route does', async () => {
    t = await startTestApp({ db, env: { ROLES: 'worker' } });
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    for (const p of ['/api/user/info', '/api/vip/subscribe/category', '/publish-api/chrome/login/connection']) {
      const r = await t.call('GET', `${t.url}${p}`);
      expect(r.code, p).toBe(ErrorCode.NOT_FOUND);
    }
    const login = await t.call('POST', '/auth/sms/send', { body: { phone: '13700000000' } });
    expect(login.code).toBe(ErrorCode.NOT_FOUND);
    expect((await fetch(`${t.url}/api/docs`)).status).toBe(200);
    expect(((await (await fetch(`${t.url}/api/docs`)).json()) as { code: number }).code).toBe(ErrorCode.NOT_FOUND);
    expect(await probeRuns(t)).toBe(true);
  });

  it('with web: the API answers', async () => {
    t = await startTestApp({ db, env: { ROLES: 'web,worker' } });
    const r = await t.call('GET', '/vip/subscribe/category');
    expect(r.code).toBe(0);
  });

  it('web only: jobs are enqueued but never run here, and no job can even be registered', async () => {
    t = await startTestApp({ db, env: { ROLES: 'web' } });
    expect((await t.call('GET', '/vip/subscribe/category')).code).toBe(0);
    expect(t.container.jobs.registered()).toEqual([]);
    expect(() => t!.container.jobs.register('roles.probe', async () => undefined)).toThrow(/worker role.*ROLES=web/);
    await t.container.jobs.enqueue('writing.task', { taskId: 'none' });
    await t.container.jobs.idle();
  });

  it('the worker registers every job but publish.*, and refuses a publisher job', async () => {
    t = await startTestApp({ db, env: { ROLES: 'worker' } });
    const worker = t.container.jobs.registered();
    expect(worker).toEqual(
      expect.arrayContaining(['writing.task', 'writing.recover', 'knowledge.parse', 'topic.refresh', 'vip.order-expiry', 'notice.vip-expiring', 'data.snapshot', 'data.tick']),
    );
    expect(worker.filter((n) => n.startsWith('publish.'))).toEqual([]);
    expect(() => t!.container.jobs.register('publish.note', async () => undefined)).toThrow(/publisher role/);
  });

  it('the publisher registers only publish.* jobs, the browser ones among them', async () => {
    t = await startTestApp({ db, env: { ROLES: 'publisher' } });
    const publisher = t.container.jobs.registered();
    expect(publisher).toEqual(
      expect.arrayContaining([
        'publish.engagement',
        'publish.engagement-tick',
        'publish.login-drive',
        'publish.note',
        'publish.recover',
        'publish.session-check',
        'publish.data-snapshot',
      ]),
    );
    expect(publisher.filter((n) => !n.startsWith('publish.'))).toEqual([]);
    expect(() => t!.container.jobs.register('writing.task', async () => undefined)).toThrow(/worker role/);
  });

  it('/readyz: 200 with the database answering, on a role without web too', async () => {
    t = await startTestApp({ db, env: { ROLES: 'worker' } });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', database: 'ok', redis: 'none', roles: ['worker'] });
  });

  it('/readyz: 503 when Redis is unreachable, while /healthz still answers', async () => {
    // Nothing listens on port 1: the web process stays up (liveness) but is taken out of rotation.
    t = await startTestApp({ db, env: { ROLES: 'web', REDIS_URL: 'redis://127.0.0.1:1' } });
    const down = await fetch(`${t.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', database: 'ok' });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});

describeOnDatabases('browser only in the publisher role (%s)', (db) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('web only, no Redis: a QR login and a session check are refused at once and Chromium is never started', async () => {
    t = await startPublishApp(db, { ROLES: 'web' });
    const token = (await loginByPhone(t)).tokenValue;
    const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'sandbox' } });
    expect(conn.code).toBe(ErrorCode.PLATFORM_FAILED);
    expect(conn.msg).toContain('publisher');
    const pool = t.container.publishing.pool;
    expect(pool.stats().launches).toBe(0);
    expect(pool.stats().running).toBe(false);
    // The pool itself refuses too (a code path that forgets to relay fails loudly instead of starting Chromium).
    await expect(pool.withPage('x', null, async () => 1)).rejects.toThrow(/publisher/);
    expect(pool.stats().launches).toBe(0);
  });
});

/**
 * A web process and a publisher process on one database and one Redis (the shape of a deployment): the browser
 * login the web process is asked for runs in the publisher's Chromium, and publishing runs there too.
 */
describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], 'web and publisher as two processes (postgres + redis)', (_pgUrl, redisUrl) => {
  it('a QR login and a publish through the web process launch Chromium only in the publisher', async () => {
    const prefix = `roles${randomBytes(4).toString('hex')}`;
    const shared = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
    const web = await startPublishApp('postgres', { ...shared, ROLES: 'web' });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-publisher-'));
    // The publisher's own app on the web process's database, its browser pointed at the web process's sandbox site.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      APP_SECRET_KEY: 'ab'.repeat(32),
      DATA_DIR: dataDir,
      PUBLISH_PLATFORMS: 'sandbox',
      PUBLISH_RETRY_BACKOFF_MS: '300',
      PUBLISH_ENGAGEMENT_INTERVAL_MS: '3600000',
      SANDBOX_PLATFORM_URL: web.url,
      PUBLIC_URL: web.url,
      ROLES: 'publisher',
      ...shared,
    });
    const database = await openDatabase({ databaseUrl: (web.container.database as { url?: string }).url!, dataDir: null });
    const pc = await createContainer(config, { database });
    const papp = await buildApp(pc);
    await pc.startJobs();
    await papp.listen({ port: 0, host: '127.0.0.1' });
    try {
      const token = (await loginByPhone(web)).tokenValue;
      const account = await bindSandboxAccount(web, token, '双进程账号');
      expect(account).toMatchObject({ platform: 'sandbox', accountName: '双进程账号', status: 'active' });
      // Asked of the web process, answered by the publisher's browser.
      const check = await web.call<{ valid: boolean }>('POST', publishApi(web, '/publish/passthrough'), { token, body: { category: 'sessionCheck', accountId: account.id } });
      expect(check.code).toBe(0);
      expect(check.data.valid).toBe(true);
      const sent = await web.call<{ publishId: string }>('POST', publishApi(web, '/publish/article'), {
        token,
        body: { accountIds: [account.id], content: { title: '双进程', body: '<p>由发布进程发出</p>', images: [PNG_DATA_URL], topics: [] } },
      });
      expect(sent.code, sent.msg).toBe(0);
      const result: PublishResultReply = await waitForPublish(web, token, sent.data.publishId, allFinished);
      expect(result.jobs.map((j) => j.status)).toEqual(['succeeded']);
      expect(web.container.publishing.pool.stats().launches).toBe(0);
      expect(pc.publishing.pool.stats().launches).toBeGreaterThanOrEqual(1);
      // And the publisher serves none of the API.
      const publisherUrl = `http://127.0.0.1:${(papp.server.address() as { port: number }).port}`;
      expect(await fetch(`${publisherUrl}/api/publish/account/list/v3`).then((r) => r.json())).toMatchObject({ code: ErrorCode.NOT_FOUND });
    } finally {
      await papp.close();
      await pc.close();
      await web.close();
    }
  });
});
