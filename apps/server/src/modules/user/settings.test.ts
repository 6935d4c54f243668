import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, limits, TOKEN_NAME, type AppRelease, type LoginDevice, type LoginResult, type UserProfile } from '@inkstone/shared';
import { startTestApp, nextIp, type TestApp } from '../../test/app.js';
import { latestCode, loginByPhone, nextPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';

type Setting = { settingKey: string; settingValue: string; label: string };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Logs `phone` in from a browser that says who it is, as the settings page's device list shows it. */
async function loginFrom(t: TestApp, phone: string, userAgent: string): Promise<LoginResult> {
  const ip = nextIp();
  // A phone may ask for a new code once a minute.
  t.clock.advance(61_000);
  await t.call('GET', '/auth/send/msg', { query: { phone }, ip });
  const code = await latestCode(t, phone);
  const res = await t.call<LoginResult>('POST', '/auth/doLogin0', { body: { phone, code }, ip, headers: { 'user-agent': userAgent } });
  expect(res.code).toBe(0);
  return res.data;
}

async function uploadAvatar(t: TestApp, token: string, bytes: Buffer, name: string, type: string) {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return (await (await fetch(`${t.url}/api/user/avatar`, { method: 'POST', headers: { [TOKEN_NAME]: token, 'x-forwarded-for': nextIp() }, body: fd })).json()) as {
    code: number;
    msg: string;
    data: UserProfile;
  };
}

describeOnDatabases('settings page APIs on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('login devices', () => {
    it('lists the live sessions with client, IP and last seen, and marks the current one', async () => {
      const phone = nextPhone();
      const laptop = await loginFrom(t, phone, 'Mozilla/5.0 (Macintosh) Chrome/130');
      const phoneBrowser = await loginFrom(t, phone, 'Mozilla/5.0 (iPhone) Safari/605');
      const list = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: laptop.tokenValue });
      expect(list.code).toBe(0);
      expect(list.data).toHaveLength(2);
      const current = list.data.find((d) => d.current)!;
      expect(current.client).toContain('Macintosh');
      expect(list.data.find((d) => !d.current)!.client).toContain('iPhone');
      for (const d of list.data) {
        expect(d.ip).toBeTruthy();
        expect(Date.parse(d.lastSeenAt)).not.toBeNaN();
      }
      // The other browser sees itself as current.
      const fromPhone = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: phoneBrowser.tokenValue });
      expect(fromPhone.data.find((d) => d.current)!.client).toContain('iPhone');
    });

    it('signs one device out: that token is revoked (430), the caller stays logged in and the list shrinks', async () => {
      const phone = nextPhone();
      const a = await loginFrom(t, phone, 'client-a');
      const b = await loginFrom(t, phone, 'client-b');
      const list = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: a.tokenValue });
      const other = list.data.find((d) => !d.current)!;
      expect((await t.call('POST', '/auth/sessions/revoke', { token: a.tokenValue, body: { id: other.id } })).code).toBe(0);
      expect((await t.call('GET', '/auth/nowLoginUser', { token: b.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      expect((await t.call('GET', '/auth/nowLoginUser', { token: a.tokenValue })).code).toBe(0);
      const after = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: a.tokenValue });
      expect(after.data.map((d) => d.client)).toEqual(['client-a']);
    });

    it("refuses another user's session id and leaves that session live", async () => {
      const victim = await loginByPhone(t);
      const attacker = await loginByPhone(t);
      const victimSessions = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: victim.tokenValue });
      const res = await t.call('POST', '/auth/sessions/revoke', { token: attacker.tokenValue, body: { id: victimSessions.data[0]!.id } });
      expect(res.code).toBe(ErrorCode.NOT_FOUND);
      expect(res.msg).toBe('登录设备不存在或已退出');
      expect((await t.call('GET', '/auth/nowLoginUser', { token: victim.tokenValue })).code).toBe(0);
      // The attacker's own list never shows the victim's session.
      const own = await t.call<LoginDevice[]>('GET', '/auth/sessions', { token: attacker.tokenValue });
      expect(own.data.map((d) => d.id)).not.toContain(victimSessions.data[0]!.id);
    });

    it('validates the id and needs a session', async () => {
      const u = await loginByPhone(t);
      const bad = await t.call('POST', '/auth/sessions/revoke', { token: u.tokenValue, body: { id: 'abc' } });
      expect(bad.code).toBe(ErrorCode.VALIDATION);
      expect(bad.msg).toContain('设备 id');
      expect((await t.call('GET', '/auth/sessions')).code).toBe(ErrorCode.NOT_LOGGED_IN);
      expect((await t.call('POST', '/auth/sessions/revoke', { body: { id: 1 } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
      expect((await t.call('POST', '/auth/wx/unbind')).code).toBe(ErrorCode.NOT_LOGGED_IN);
    });
  });

  describe('WeChat unbinding', () => {
    async function scannedScene(identity: string) {
      const qr = await t.call<{ scene: string }>('GET', '/wx/qrcode/url');
      const res = await fetch(`${t.url}/api/dev/wx-sandbox/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': nextIp() },
        body: new URLSearchParams({ scene: qr.data.scene, identity }).toString(),
      });
      expect(res.status).toBe(200);
      return qr.data.scene;
    }

    it('unbinds the bound WeChat: the QR alone no longer logs in, the phone still does, and the WeChat can be bound again', async () => {
      const u = await loginByPhone(t);
      const identity = `解绑用户${u.user.id}`;
      const bound = await t.call<UserProfile>('POST', '/auth/wx/bind', { token: u.tokenValue, body: { scene: await scannedScene(identity) } });
      expect(bound.data.wxBound).toBe(true);
      const unbound = await t.call<UserProfile>('POST', '/auth/wx/unbind', { token: u.tokenValue });
      expect(unbound.code).toBe(0);
      expect(unbound.data.wxBound).toBe(false);
      const byQr = await t.call('POST', '/auth/v2/doLoginWx', { body: { scene: await scannedScene(identity) } });
      expect(byQr.code).toBe(ErrorCode.WX_NOT_BOUND);
      t.clock.advance(61_000);
      expect((await loginByPhone(t, u.phone)).user.id).toBe(u.user.id);
      const again = await t.call('POST', '/auth/wx/unbind', { token: u.tokenValue });
      expect(again.code).toBe(ErrorCode.CONFLICT);
      expect(again.msg).toBe('当前账号未绑定微信');
      expect((await t.call<UserProfile>('POST', '/auth/wx/bind', { token: u.tokenValue, body: { scene: await scannedScene(identity) } })).data.wxBound).toBe(true);
    });
  });

  describe('account deletion from the settings page', () => {
    it("sends the code to the account's own phone (the page knows it only masked), and that code deletes the account", async () => {
      const u = await loginByPhone(t);
      t.clock.advance(61_000);
      const sent = await t.call<{ resendAfterSeconds: number; sandbox: boolean }>('POST', '/auth/delete/code', { token: u.tokenValue, ip: nextIp() });
      expect(sent.code).toBe(0);
      expect(sent.data.sandbox).toBe(true);
      const code = await latestCode(t, u.phone);
      expect((await t.call('POST', '/auth/delete/v2', { token: u.tokenValue, body: { code } })).code).toBe(0);
      expect((await t.call('GET', '/auth/nowLoginUser', { token: u.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      expect((await t.call('POST', '/auth/delete/code')).code).toBe(ErrorCode.NOT_LOGGED_IN);
    });
  });

  describe('avatar', () => {
    it('stores an uploaded image as the avatar and refuses bytes that are not the image they claim', async () => {
      const u = await loginByPhone(t);
      const ok = await uploadAvatar(t, u.tokenValue, PNG, 'avatar.png', 'image/png');
      expect(ok.code).toBe(0);
      expect(ok.data.avatar).toMatch(/^\/uploads\/.+\.png$/);
      const served = await fetch(`${t.url}${ok.data.avatar}`);
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      const fake = await uploadAvatar(t, u.tokenValue, Buffer.from('%PDF-1.4 not an image'), 'avatar.png', 'image/png');
      expect(fake.code).toBe(ErrorCode.FILE_TYPE_MISMATCH);
      const me = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: u.tokenValue });
      expect(me.data.avatar).toBe(ok.data.avatar);
      // Another user's profile is untouched.
      expect((await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: (await loginByPhone(t)).tokenValue })).data.avatar).toBeNull();
    });

    it('needs a session', async () => {
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
      const res = (await (await fetch(`${t.url}/api/user/avatar`, { method: 'POST', body: fd })).json()) as { code: number };
      expect(res.code).toBe(ErrorCode.NOT_LOGGED_IN);
    });
  });

  describe('notification kinds in the settings catalogue', () => {
    it('lists each kind on by default and switches one off for this user only', async () => {
      const u = await loginByPhone(t);
      const other = await loginByPhone(t);
      const list = await t.call<Setting[]>('GET', '/user/setting/list', { token: u.tokenValue });
      for (const key of ['notifyComment', 'notifyPublish', 'notifySystem']) expect(list.data.find((s) => s.settingKey === key)?.settingValue).toBe('true');
      const off = await t.call<Setting[]>('PUT', '/user/setting/update', { token: u.tokenValue, body: { settingKey: 'notifyPublish', settingValue: 'false' } });
      expect(off.data.find((s) => s.settingKey === 'notifyPublish')?.settingValue).toBe('false');
      const bad = await t.call('PUT', '/user/setting/update', { token: u.tokenValue, body: { settingKey: 'notifySystem', settingValue: 'maybe' } });
      expect(bad.code).toBe(ErrorCode.VALIDATION);
      expect(bad.msg).toContain('settingValue');
      const theirs = await t.call<Setting[]>('GET', '/user/setting/list', { token: other.tokenValue });
      expect(theirs.data.find((s) => s.settingKey === 'notifyPublish')?.settingValue).toBe('true');
    });
  });

  describe('release notes', () => {
    it('serves the current version and notes, echoes the client version, and no download page unless configured', async () => {
      const res = await t.call<AppRelease>('GET', '/app/release', { query: { version: '3.4.2' } });
      expect(res.code).toBe(0);
      expect(res.data.version).toBe(limits.appVersion);
      expect(res.data.clientVersion).toBe('3.4.2');
      expect(res.data.notes.length).toBeGreaterThan(0);
      expect(res.data.downloadUrl).toBeNull();
      const long = await t.call('GET', '/app/release', { query: { version: 'x'.repeat(40) } });
      expect(long.code).toBe(ErrorCode.VALIDATION);
      expect(long.msg).toContain('version');
    });
  });
});

describeOnDatabases('download page on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { APP_DOWNLOAD_URL: 'https://download.example.com/inkstone' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers the configured download page in the release reply', async () => {
    const res = await t.call<AppRelease>('GET', '/app/release');
    expect(res.data.downloadUrl).toBe('https://download.example.com/inkstone');
    expect(res.data.clientVersion).toBeNull();
  });
});
