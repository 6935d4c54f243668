import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME, type LoginResult, type UserProfile } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { latestCode, loginByPhone, nextPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { sessions, smsCodes, users } from '../../db/schema/index.js';
import { sha256Hex } from '../../security/hashing.js';

describeOnDatabases('auth on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /auth/send/msg', () => {
    it('rejects a malformed phone, naming the field, and sends nothing', async () => {
      for (const phone of ['', '12345', '23800138000', '1380013800a', '138001380001']) {
        const res = await t.call('GET', '/auth/send/msg', { query: { phone } });
        expect(res.status).toBe(200);
        expect(res.code).toBe(ErrorCode.VALIDATION);
        expect(res.msg).toContain('phone');
      }
      const missing = await t.call('GET', '/auth/send/msg');
      expect(missing.code).toBe(ErrorCode.VALIDATION);
      expect(missing.msg).toContain('phone');
      const rows = await t.container.db.select().from(smsCodes);
      expect(rows.filter((r) => r.phone.length !== 11)).toHaveLength(0);
    });

    it('sends a 6-digit code, stores only its hash, and answers the same for registered and new phones', async () => {
      const registered = await loginByPhone(t);
      t.clock.advance(61_000);
      const fresh = nextPhone();
      const a = await t.call('GET', '/auth/send/msg', { query: { phone: registered.phone }, ip: nextIp() });
      const b = await t.call('GET', '/auth/send/msg', { query: { phone: fresh }, ip: nextIp() });
      expect(a.code).toBe(0);
      expect(b.code).toBe(0);
      expect(a.data).toEqual(b.data);
      expect(a.msg).toBe(b.msg);
      const code = await latestCode(t, fresh);
      expect(code).toMatch(/^\d{6}$/);
      const [row] = await t.container.db.select().from(smsCodes).where(eq(smsCodes.phone, fresh));
      expect(row!.codeHash).not.toContain(code);
      expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(5 * 60_000);
    });

    it('allows one send per phone per 60 seconds', async () => {
      const phone = nextPhone();
      expect((await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() })).code).toBe(0);
      const again = await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
      expect(again.code).toBe(ErrorCode.SMS_TOO_FREQUENT);
      t.clock.advance(30_000);
      expect((await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() })).code).toBe(ErrorCode.SMS_TOO_FREQUENT);
      t.clock.advance(31_000);
      expect((await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() })).code).toBe(0);
    });

    it('lets only one of several concurrent sends to the same phone through', async () => {
      const phone = nextPhone();
      const results = await Promise.all(Array.from({ length: 8 }, () => t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() })));
      expect(results.filter((r) => r.code === 0)).toHaveLength(1);
      expect(results.filter((r) => r.code === ErrorCode.SMS_TOO_FREQUENT)).toHaveLength(7);
    });

    it('caps sends per phone per day', async () => {
      const phone = nextPhone();
      for (let i = 0; i < 10; i++) {
        const res = await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
        expect(res.code).toBe(0);
        t.clock.advance(61_000);
      }
      const capped = await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
      expect(capped.code).toBe(ErrorCode.SMS_DAILY_LIMIT);
    });

    it('caps sends per IP per day', async () => {
      const ip = nextIp();
      const now = t.clock.now();
      // Thirty earlier sends from this address today.
      await t.container.db
        .insert(smsCodes)
        .values(Array.from({ length: 30 }, (_, i) => ({ phone: `1370000${String(i).padStart(4, '0')}`, ip, codeHash: 'x'.repeat(64), createdAt: now, expiresAt: now })));
      const res = await t.call('GET', '/auth/send/msg', { query: { phone: nextPhone() }, ip });
      expect(res.code).toBe(ErrorCode.SMS_DAILY_LIMIT);
      const other = await t.call('GET', '/auth/send/msg', { query: { phone: nextPhone() }, ip: nextIp() });
      expect(other.code).toBe(0);
    });

    it('rate-limits bursts from one address', async () => {
      const ip = nextIp();
      const codes: number[] = [];
      for (let i = 0; i < 12; i++) codes.push((await t.call('GET', '/auth/send/msg', { query: { phone: nextPhone() }, ip })).code);
      expect(codes.slice(0, 10).every((c) => c === 0)).toBe(true);
      expect(codes.slice(10)).toEqual([ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]);
    });
  });

  describe('POST /auth/doLogin0', () => {
    async function sendCode(phone: string) {
      const res = await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
      expect(res.code).toBe(0);
      return latestCode(t, phone);
    }
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    it('registers on first login, records channel and invitation, and returns the token pair and masked profile', async () => {
      const inviter = await loginByPhone(t);
      const phone = nextPhone();
      const code = await sendCode(phone);
      const res = await t.call<LoginResult>('POST', '/auth/doLogin0', {
        body: { phone, code, channelId: 'xhs-ad-7', invitationCode: inviter.user.inviteCode.toLowerCase() },
      });
      expect(res.code).toBe(0);
      expect(res.data.tokenName).toBe(TOKEN_NAME);
      expect(Buffer.from(res.data.tokenValue, 'base64url')).toHaveLength(32);
      expect(res.data.user.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
      expect(res.data.user.userProfile).toBe(false);
      expect(res.data.user.vipInfo).toMatchObject({ isVip: false, vipType: 'normal' });
      const [row] = await t.container.db.select().from(users).where(eq(users.id, res.data.user.id));
      expect(row!.channelId).toBe('xhs-ad-7');
      expect(row!.invitedByCode).toBe(inviter.user.inviteCode);
      // Only the token's hash is stored.
      const stored = await t.container.db.select().from(sessions).where(eq(sessions.userId, res.data.user.id));
      expect(stored).toHaveLength(1);
      expect(stored[0]!.tokenHash).toBe(sha256Hex(res.data.tokenValue));

      t.clock.advance(61_000);
      const second = await loginByPhone(t, phone);
      expect(second.user.id).toBe(res.data.user.id);
    });

    it('rejects a wrong code and voids the code after five wrong tries', async () => {
      const phone = nextPhone();
      const code = await sendCode(phone);
      for (let i = 0; i < 5; i++) {
        const res = await t.call('POST', '/auth/doLogin0', { body: { phone, code: wrong(code) } });
        expect(res.code).toBe(ErrorCode.SMS_CODE_WRONG);
      }
      const res = await t.call('POST', '/auth/doLogin0', { body: { phone, code } });
      expect(res.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
      expect(await t.container.services.auth.isRegistered(phone)).toBe(false);
    });

    it('accepts the right code after fewer than five wrong tries', async () => {
      const phone = nextPhone();
      const code = await sendCode(phone);
      for (let i = 0; i < 4; i++) expect((await t.call('POST', '/auth/doLogin0', { body: { phone, code: wrong(code) } })).code).toBe(ErrorCode.SMS_CODE_WRONG);
      expect((await t.call('POST', '/auth/doLogin0', { body: { phone, code } })).code).toBe(0);
    });

    it('rejects a code after five minutes', async () => {
      const phone = nextPhone();
      const code = await sendCode(phone);
      t.clock.advance(5 * 60_000 + 1_000);
      const res = await t.call('POST', '/auth/doLogin0', { body: { phone, code } });
      expect(res.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
    });

    it('accepts a code once only, even under concurrent use', async () => {
      const phone = nextPhone();
      const code = await sendCode(phone);
      const results = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/auth/doLogin0', { body: { phone, code } })));
      expect(results.filter((r) => r.code === 0)).toHaveLength(1);
      expect(results.filter((r) => r.code === ErrorCode.SMS_CODE_EXPIRED)).toHaveLength(4);
    });

    it('voids the older code when a new one is sent', async () => {
      const phone = nextPhone();
      const first = await sendCode(phone);
      t.clock.advance(61_000);
      const second = await sendCode(phone);
      if (first !== second) expect((await t.call('POST', '/auth/doLogin0', { body: { phone, code: first } })).code).toBe(ErrorCode.SMS_CODE_WRONG);
      expect((await t.call('POST', '/auth/doLogin0', { body: { phone, code: second } })).code).toBe(0);
    });

    it('validates fields with messages that name them', async () => {
      const cases: [unknown, string][] = [
        [{ code: '123456' }, 'phone'],
        [{ phone: '13800138000' }, 'code'],
        [{ phone: '13800138000', code: '12345' }, 'code'],
        [{ phone: '13800138000', code: '123456', channelId: 'x'.repeat(65) }, 'channelId'],
      ];
      for (const [body, field] of cases) {
        const res = await t.call('POST', '/auth/doLogin0', { body });
        expect(res.code).toBe(ErrorCode.VALIDATION);
        expect(res.msg).toContain(field);
      }
    });
  });

  describe('sessions', () => {
    it('answers isLogin false without a token, 401 for an unknown one, true for a live one', async () => {
      expect((await t.call('GET', '/auth/isLogin')).data).toBe(false);
      expect((await t.call('GET', '/auth/isLogin', { token: 'nope' })).code).toBe(ErrorCode.NOT_LOGGED_IN);
      const { tokenValue } = await loginByPhone(t);
      const res = await t.call('GET', '/auth/isLogin', { token: tokenValue });
      expect(res).toMatchObject({ code: 0, data: true });
    });

    it('requires a session for the current user', async () => {
      const res = await t.call('GET', '/auth/nowLoginUser');
      expect(res.status).toBe(200);
      expect(res.code).toBe(ErrorCode.NOT_LOGGED_IN);
      const login = await loginByPhone(t);
      const me = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: login.tokenValue });
      expect(me.data.id).toBe(login.user.id);
    });

    it('answers 430 after logout, and logout of one device leaves the other', async () => {
      const phone = nextPhone();
      const a = await loginByPhone(t, phone);
      t.clock.advance(61_000);
      const b = await loginByPhone(t, phone);
      expect((await t.call('GET', '/auth/logout', { token: a.tokenValue, query: { device: 'web' } })).code).toBe(0);
      expect((await t.call('GET', '/auth/isLogin', { token: a.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      expect((await t.call('GET', '/auth/nowLoginUser', { token: a.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      expect((await t.call('GET', '/auth/isLogin', { token: b.tokenValue })).data).toBe(true);
      await t.call('GET', '/auth/logout', { token: b.tokenValue, query: { device: 'all' } });
      expect((await t.call('GET', '/auth/isLogin', { token: b.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
    });

    it('expires after 30 idle days with 401, and use slides the expiry', async () => {
      const idle = await loginByPhone(t);
      const active = await loginByPhone(t);
      t.clock.advance(20 * 86_400_000);
      expect((await t.call('GET', '/auth/isLogin', { token: active.tokenValue })).data).toBe(true);
      t.clock.advance(15 * 86_400_000);
      expect((await t.call('GET', '/auth/isLogin', { token: idle.tokenValue })).code).toBe(ErrorCode.NOT_LOGGED_IN);
      expect((await t.call('GET', '/auth/isLogin', { token: active.tokenValue })).data).toBe(true);
    });
  });

  describe('hand-over tokens', () => {
    it('log in once with a minted token; reuse, tampering and expiry are refused', async () => {
      const owner = await loginByPhone(t);
      const minted = await t.call<{ accessToken: string }>('POST', '/auth/spark/token', { token: owner.tokenValue });
      expect(minted.code).toBe(0);
      const login = await t.call<LoginResult>('POST', '/auth/spark/login', { body: { accessToken: minted.data.accessToken, scene: 'desktop' } });
      expect(login.code).toBe(0);
      expect(login.data.tokenName).toBe(TOKEN_NAME);
      expect(login.data.user.id).toBe(owner.user.id);
      expect((await t.call('GET', '/auth/isLogin', { token: login.data.tokenValue })).data).toBe(true);

      const reuse = await t.call('POST', '/auth/spark/login', { body: { accessToken: minted.data.accessToken } });
      expect(reuse.code).toBe(ErrorCode.HANDOVER_TOKEN_INVALID);

      const fresh = await t.call<{ accessToken: string }>('POST', '/auth/spark/token', { token: owner.tokenValue });
      const [payload, sig] = fresh.data.accessToken.split('.');
      const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), uid: 1 })).toString('base64url');
      expect((await t.call('POST', '/auth/spark/login', { body: { accessToken: `${forgedPayload}.${sig}` } })).code).toBe(ErrorCode.HANDOVER_TOKEN_INVALID);

      t.clock.advance(5 * 60_000 + 1_000);
      expect((await t.call('POST', '/auth/spark/login', { body: { accessToken: fresh.data.accessToken } })).code).toBe(ErrorCode.HANDOVER_TOKEN_INVALID);
    });

    it('cannot be minted without a session', async () => {
      expect((await t.call('POST', '/auth/spark/token')).code).toBe(ErrorCode.NOT_LOGGED_IN);
    });
  });

  describe('binding WeChat to a phone account', () => {
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

    it('binds the scanned WeChat to the logged-in account, which then logs in by QR alone', async () => {
      const u = await loginByPhone(t);
      const identity = `绑定用户${u.user.id}`;
      expect((await t.call<{ isBind: boolean }>('GET', '/auth/isbind', { token: u.tokenValue })).data.isBind).toBe(false);
      const scene = await scannedScene(identity);
      expect((await t.call<{ isBind: boolean }>('GET', '/auth/isbind', { query: { scene } })).data.isBind).toBe(false);
      const bound = await t.call<UserProfile>('POST', '/auth/wx/bind', { token: u.tokenValue, body: { scene } });
      expect(bound.code).toBe(0);
      expect(bound.data.wxBound).toBe(true);
      expect((await t.call<{ isBind: boolean }>('GET', '/auth/isbind', { token: u.tokenValue })).data.isBind).toBe(true);

      const next = await scannedScene(identity);
      expect((await t.call<{ isBind: boolean }>('GET', '/auth/isbind', { query: { scene: next } })).data.isBind).toBe(true);
      const login = await t.call<LoginResult>('POST', '/auth/v2/doLoginWx', { body: { scene: next } });
      expect(login.code).toBe(0);
      expect(login.data.user.id).toBe(u.user.id);
    });

    it('refuses a WeChat identity that belongs to another account', async () => {
      const owner = await loginByPhone(t);
      const other = await loginByPhone(t);
      const identity = `已占用${owner.user.id}`;
      await t.call('POST', '/auth/wx/bind', { token: owner.tokenValue, body: { scene: await scannedScene(identity) } });
      const res = await t.call('POST', '/auth/wx/bind', { token: other.tokenValue, body: { scene: await scannedScene(identity) } });
      expect(res.code).toBe(ErrorCode.WX_ALREADY_BOUND);
      expect((await t.call<{ isBind: boolean }>('GET', '/auth/isbind', { token: other.tokenValue })).data.isBind).toBe(false);
    });
  });

  describe('GET /auth/isRegister', () => {
    it('tells registered from unknown and validates input', async () => {
      const user = await loginByPhone(t);
      expect((await t.call('GET', '/auth/isRegister', { query: { phoneOrOpenId: user.phone } })).data).toBe(true);
      expect((await t.call('GET', '/auth/isRegister', { query: { phoneOrOpenId: nextPhone() } })).data).toBe(false);
      expect((await t.call('GET', '/auth/isRegister', { query: { phoneOrOpenId: 'sbx_unknown' } })).data).toBe(false);
      const bad = await t.call('GET', '/auth/isRegister');
      expect(bad.code).toBe(ErrorCode.VALIDATION);
      expect(bad.msg).toContain('phoneOrOpenId');
    });
  });

  describe('POST /auth/delete/v2', () => {
    it('needs the SMS code, anonymises the user, revokes every session and frees the phone', async () => {
      const phone = nextPhone();
      const a = await loginByPhone(t, phone);
      t.clock.advance(61_000);
      const b = await loginByPhone(t, phone);
      t.clock.advance(61_000);
      await t.call('GET', '/auth/send/msg', { query: { phone }, ip: nextIp() });
      const code = await latestCode(t, phone);
      const bad = await t.call('POST', '/auth/delete/v2', { token: a.tokenValue, body: { code: code === '000000' ? '111111' : '000000' } });
      expect(bad.code).toBe(ErrorCode.SMS_CODE_WRONG);
      expect((await t.call('GET', '/auth/isLogin', { token: a.tokenValue })).data).toBe(true);

      const res = await t.call('POST', '/auth/delete/v2', { token: a.tokenValue, body: { code } });
      expect(res.code).toBe(0);
      expect((await t.call('GET', '/auth/isLogin', { token: a.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      expect((await t.call('GET', '/auth/isLogin', { token: b.tokenValue })).code).toBe(ErrorCode.SESSION_REVOKED);
      const [row] = await t.container.db.select().from(users).where(eq(users.id, a.user.id));
      expect(row!.phone).toBeNull();
      expect(row!.nickname).toBe('已注销用户');
      expect(row!.deletedAt).not.toBeNull();

      t.clock.advance(61_000);
      const again = await loginByPhone(t, phone);
      expect(again.user.id).not.toBe(a.user.id);
    });

    it('requires a session', async () => {
      expect((await t.call('POST', '/auth/delete/v2', { body: { code: '123456' } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
    });
  });
});
