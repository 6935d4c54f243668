import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@inkstone/shared';
import { ConfigError, loadConfig } from './config.js';
import { startTestApp, type TestApp } from './test/app.js';
import { testDbKinds } from './test/database.js';

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

describe.each(testDbKinds)('process roles (%s)', (db) => {
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

  it('web only: jobs are enqueued but never run here', async () => {
    t = await startTestApp({ db, env: { ROLES: 'web' } });
    expect((await t.call('GET', '/vip/subscribe/category')).code).toBe(0);
    expect(await probeRuns(t)).toBe(false);
  });
});
