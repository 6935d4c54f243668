import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GlobalSetting, type LoginResult } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { commands } from './commands.js';

describe('admin CLI commands', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a user by phone and mints a hand-over token that logs them in once', async () => {
    const user = await loginByPhone(t);
    const found = (await commands['user:find']!.run(t.container, { phone: user.phone })) as { id: number; phoneFull: string };
    expect(found).toMatchObject({ id: user.user.id, phoneFull: user.phone });
    const minted = (await commands['user:mint-token']!.run(t.container, { id: String(user.user.id) })) as { accessToken: string; loginUrl: string };
    expect(minted.loginUrl).toContain(encodeURIComponent(minted.accessToken));
    const login = await t.call<LoginResult>('POST', '/auth/spark/login', { body: { accessToken: minted.accessToken } });
    expect(login.data.user.id).toBe(user.user.id);
    await expect(commands['user:find']!.run(t.container, { phone: '13000000000' })).rejects.toThrow('未找到用户');
  });

  it('sets global settings with validation', async () => {
    await commands['settings:set']!.run(t.container, { key: 'autoRenewalDays', value: '7' });
    expect((await t.call<GlobalSetting>('GET', '/user/global-setting')).data.autoRenewalDays).toBe(7);
    await expect(commands['settings:set']!.run(t.container, { key: 'autoRenewalDays', value: 'x' })).rejects.toThrow('取值不合法');
    await expect(commands['settings:set']!.run(t.container, { key: 'nope', value: '1' })).rejects.toThrow('未知的配置项');
  });
});
