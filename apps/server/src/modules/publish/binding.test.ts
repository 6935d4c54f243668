import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type LoginConnectReply, type LoginScanReply, type PlatformAccount } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { bindSandboxAccount, publishApi, sandboxControl, startPublishApp, until } from '../../test/publish-helpers.js';
import { platformAccounts } from '../../db/schema/index.js';
import { decryptSecret } from '../../security/encryption.js';

describeOnDatabases('binding sandbox accounts by QR on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  const replies: string[] = [];
  const record = <T extends object>(r: T) => {
    replies.push(JSON.stringify(r));
    return r;
  };

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('requires login on /publish-api and answers with the envelope', async () => {
    const res = await t.call('POST', publishApi(t, '/chrome/login/connect'), { body: { platform: 'sandbox' } });
    expect(res.status).toBe(200);
    expect(res.code).toBe(ErrorCode.NOT_LOGGED_IN);
    const unknown = await t.call('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'douyin' } });
    expect(unknown.code).toBe(ErrorCode.VALIDATION);
  });

  it('binds through connect → scan → phone confirm → cookie → bind, and keeps the session encrypted', async () => {
    const conn = record(await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'sandbox' } }));
    expect(conn.code).toBe(0);
    expect(conn.data.qrImage).toMatch(/^data:image\/png;base64,/);
    expect(conn.data.state).toBe('waiting');
    const scan = record(await t.call<LoginScanReply>('GET', publishApi(t, '/chrome/login/code/scan'), { token, query: { connectionId: conn.data.connectionId } }));
    expect(scan.data).toMatchObject({ scanState: 'waiting' });
    // Not confirmed yet: completing is refused, binding rejects with a non-zero code.
    const early = await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: { connectionId: conn.data.connectionId } });
    expect(early.code).toBe(ErrorCode.PLATFORM_NOT_CONFIRMED);
    const earlyBind = await t.call('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
    expect(earlyBind.code).toBe(ErrorCode.PLATFORM_BIND_FAILED);
    await t.call('POST', publishApi(t, '/chrome/connection/release'), { token, body: { connectionId: conn.data.connectionId } });

    const account = record(await bindSandboxAccount(t, token, '沙箱小红薯'));
    expect(account).toMatchObject({ platform: 'sandbox', sandbox: true, accountName: '沙箱小红薯', status: 'active', cookies: '[]' });

    const list = record(
      await t.call<{ records: PlatformAccount[]; total: number }>('GET', '/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 200, platform: 'sandbox' } }),
    );
    expect(list.data.total).toBe(1);
    expect(list.data.records[0]).toMatchObject({ id: account.id, cookies: '[]', top: false });
    const count = record(await t.call('GET', '/publish/account/count/v3', { token }));
    // publishData (the global store's) is zero until the data area's first snapshot.
    expect(count.data).toEqual({
      total: 1,
      active: 1,
      expired: 0,
      byPlatform: { sandbox: 1 },
      publishData: { articleCount: 0, articleIncrease: 0, readCount: 0, readIncrease: 0, followCount: 0, followIncrease: 0 },
    });
    const unread = record(await t.call('GET', '/publish/account/unread', { token, query: { accountId: account.id } }));
    expect(unread.data).toEqual({ unread_count: 0, likes: 0, connections: 0, mentions: 0 });

    // Rebinding the same platform identity updates the account instead of duplicating it.
    const again = await bindSandboxAccount(t, token, '沙箱小红薯');
    expect(again.id).toBe(account.id);

    // At rest: no plaintext cookie in the row; the decrypted state holds the site's session cookie.
    const [row] = await t.container.db.select().from(platformAccounts).where(eq(platformAccounts.id, account.id));
    const state = JSON.parse(decryptSecret(t.container.key, row!.sessionEnc!)) as { cookies: Array<{ name: string; value: string }> };
    const cookie = state.cookies.find((c) => c.name === 'sbx_session')!;
    expect(cookie.value.length).toBeGreaterThan(20);
    expect(JSON.stringify(row)).not.toContain(cookie.value);
    expect(JSON.stringify(row)).not.toContain('sbx_session');
    // ...and in no API reply.
    for (const r of replies) {
      expect(r).not.toContain(cookie.value);
      expect(r).not.toContain('sbx_session');
    }
  });

  it('gives links on the sandbox site as paths, so a page opened as localhost loads avatars from its own origin', async () => {
    // The publisher's browser reaches the sandbox at 127.0.0.1; the user opens the product as localhost.
    const viaLocalhost = t.url.replace('127.0.0.1', 'localhost');
    const { tokenValue: token } = await loginByPhone(t); // an account list of its own
    const conn = await t.call<LoginConnectReply>('POST', `${viaLocalhost}/publish-api/chrome/login/connect`, { token, body: { platform: 'sandbox' } });
    const scan = await t.call<LoginScanReply>('GET', `${viaLocalhost}/publish-api/chrome/login/code/scan`, { token, query: { connectionId: conn.data.connectionId } });
    expect(scan.data.scanUrl).toMatch(/^\/sandbox-platform\/m\/scan\?ticket=/);
    await t.call('POST', `${viaLocalhost}/publish-api/chrome/connection/release`, { token, body: { connectionId: conn.data.connectionId } });

    await bindSandboxAccount(t, token, '本机头像');
    const list = await t.call<{ records: PlatformAccount[] }>('GET', `${viaLocalhost}/api/publish/account/list/v3`, {
      token,
      query: { pageNum: 1, pageSize: 200, platform: 'sandbox' },
    });
    const avatar = list.data.records.find((r) => r.accountName === '本机头像')!.avatar!;
    expect(avatar).toMatch(/^\/sandbox-platform\/avatar\/sbx\w+\.svg$/);
    // Resolved by the browser against the page's origin: same origin, so the CSP's img-src 'self' allows it.
    const img = new URL(avatar, `${viaLocalhost}/publish`);
    expect(img.origin).toBe(new URL(viaLocalhost).origin);
    const res = await fetch(img);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('checks sessions, answers config and topic search through passthrough', async () => {
    const list = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token });
    const accountId = list.data.records[0]!.id;
    const check = await t.call('POST', publishApi(t, '/publish/passthrough'), { token, body: { category: 'sessionCheck', accountId } });
    expect(check.data).toMatchObject({ valid: true, status: 'active' });
    const config = await t.call<{ platforms: Array<{ platform: string; login: string; limits: { titleMax: number } }> }>('POST', publishApi(t, '/publish/passthrough'), {
      token,
      body: { category: 'config' },
    });
    expect(config.data.platforms[0]).toMatchObject({ platform: 'sandbox', limits: { titleMax: 20 } });
    // The web's platform list and binding dialog come from here: each platform says how it logs in.
    const logins = Object.fromEntries(config.data.platforms.map((p) => [p.platform, p.login]));
    expect(logins).toEqual({ sandbox: 'qr' });
    const search = await t.call<{ topics: string[] }>('POST', publishApi(t, '/publish/passthrough'), { token, body: { category: 'search', accountId, keyword: '旅行' } });
    expect(search.data.topics).toContain('旅行');
    const other = await loginByPhone(t);
    const foreign = await t.call('POST', publishApi(t, '/publish/passthrough'), { token: other.tokenValue, body: { category: 'sessionCheck', accountId } });
    expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a check whose browser context an engagement sync closes under it (the session lapsed meanwhile) answers expired, and does not hang', async () => {
    const acct = await bindSandboxAccount(t, token, '沙箱检查竞态');
    const { pool, accounts, repo } = t.container.publishing;
    const contextsBefore = pool.stats().contexts;
    // The check's page load on the sandbox site would be held for 5 s...
    await sandboxControl(t, { slowMs: 5_000 });
    try {
      const check = t.call('POST', publishApi(t, '/publish/passthrough'), { token, body: { category: 'sessionCheck', accountId: acct.id } });
      // ...but as soon as its browser context exists, the sync finds the session lapsed: it marks the account expired,
      // which closes that context under the check (here while the check is still opening its page).
      await until(
        async () => pool.stats().contexts,
        (n) => n > contextsBefore,
        20_000,
        10,
      );
      await accounts.markExpired((await repo.account(acct.id))!, '登录已失效');
      const reply = await check;
      expect(reply.code).toBe(0);
      expect(reply.data).toMatchObject({ valid: false, status: 'expired', statusReason: '登录已失效' });
      // The pool slot the check held is free again.
      expect(pool.stats().active).toBe(0);
    } finally {
      await sandboxControl(t, { slowMs: 0 });
      await t.call('POST', '/publish/account/unbind', { token, body: { accountId: acct.id } });
    }
  }, 30_000);

  it('unbinds', async () => {
    const list = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token });
    const res = await t.call('POST', '/publish/account/unbind', { token, body: { accountId: list.data.records[0]!.id } });
    expect(res.code).toBe(0);
    const after = await t.call<{ total: number }>('GET', '/publish/account/list/v3', { token });
    expect(after.data.total).toBe(0);
  });

  it('pins an account so it lists first; only the owner can pin it', async () => {
    const first = await bindSandboxAccount(t, token, '置顶甲');
    const second = await bindSandboxAccount(t, token, '置顶乙');
    const pinned = await t.call<PlatformAccount>('POST', '/publish/account/top', { token, body: { accountId: first.id, top: true } });
    expect(pinned.code).toBe(0);
    expect(pinned.data.top).toBe(true);
    const list = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 50 } });
    expect(list.data.records[0]!.id).toBe(first.id);
    const onlyTop = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 50, top: true } });
    expect(onlyTop.data.records.map((r) => r.id)).toContain(first.id);
    expect(onlyTop.data.records.map((r) => r.id)).not.toContain(second.id);

    const stranger = (await loginByPhone(t)).tokenValue;
    const denied = await t.call('POST', '/publish/account/top', { token: stranger, body: { accountId: second.id, top: true } });
    expect(denied.code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t.call('POST', '/publish/account/top', { token, body: { accountId: second.id, top: 'yes' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('top');
    const after = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 50, top: true } });
    expect(after.data.records.map((r) => r.id)).not.toContain(second.id);
  });
});

describe('binding and publishing a WeChat Official Account through the same endpoints (API stand-in)', () => {
  it('binds with AppID/AppSecret (no QR) and publishes through draft/add + freepublish', async () => {
    const { startWechatPublishStandin } = await import('../../test/standins/wechat-mp-publish.js');
    const { PNG_DATA_URL, waitForPublish, allFinished } = await import('../../test/publish-helpers.js');
    const creds = { appId: 'wxabcdef0123456789', appSecret: 'secret-for-the-standin-000000000' };
    const standin = await startWechatPublishStandin(creds);
    const t = await startPublishApp('pglite', { PUBLISH_PLATFORMS: 'sandbox,wechat_mp', WECHAT_API_BASE: standin.url });
    try {
      const { tokenValue: token } = await loginByPhone(t);
      // The binding dialog asks for AppID/AppSecret instead of showing a QR because the server says so.
      const config = await t.call<{ platforms: Array<{ platform: string; login: string }> }>('POST', publishApi(t, '/publish/passthrough'), {
        token,
        body: { category: 'config' },
      });
      expect(config.data.platforms.map((p) => [p.platform, p.login])).toEqual([
        ['sandbox', 'qr'],
        ['wechat_mp', 'credentials'],
      ]);
      const bad = await t.call('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'wechat_mp', appId: creds.appId, appSecret: 'wrong' } });
      expect(bad.code).toBe(ErrorCode.PLATFORM_BIND_FAILED);
      const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'wechat_mp', ...creds } });
      expect(conn.data).toMatchObject({ state: 'confirmed', qrImage: null });
      const cookie = await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: { connectionId: conn.data.connectionId } });
      expect(cookie.code).toBe(0);
      const account = await t.call<PlatformAccount>('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
      expect(account.data).toMatchObject({ platform: 'wechat_mp', platformName: '微信公众号', sandbox: false, followerCount: 1234, cookies: '[]' });
      expect(JSON.stringify(account)).not.toContain(creds.appSecret);
      const res = await t.call<{ publishId: string }>('POST', publishApi(t, '/publish/article'), {
        token,
        body: {
          accountIds: [account.data.id],
          content: { title: '公众号文章标题', body: '<p>正文</p><script>alert(1)</script>', images: [PNG_DATA_URL, PNG_DATA_URL], topics: ['读书'] },
        },
      });
      expect(res.code).toBe(0);
      const done = await waitForPublish(t, token, res.data.publishId, allFinished);
      expect(done.jobs[0]).toMatchObject({ status: 'succeeded', platformStatus: 'published' });
      expect(done.jobs[0]!.url).toMatch(/^https:\/\/mp\.weixin\.qq\.com\/s\//);
      expect(standin.published).toHaveLength(1);
      expect(standin.published[0]!.content).not.toContain('<script');
      const [row] = await t.container.db.select().from(platformAccounts).where(eq(platformAccounts.id, account.data.id));
      expect(JSON.stringify(row)).not.toContain(creds.appSecret);
    } finally {
      await t.close();
      await standin.close();
    }
  });
});
