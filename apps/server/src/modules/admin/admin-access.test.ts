import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { adminRoleAtLeast, adminRoles, ErrorCode, TOKEN_NAME, type AdminAuditEntry, type AdminMe, type AdminRole, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { latestCode, loginByPhone } from '../../test/auth-helpers.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { registeredRoutes } from '../../http/auth-guard.js';

const MIN = 60_000;

describeOnDatabases('operators console access on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Calls any route, the CSV export included (its reply is a file, not the envelope). */
  async function rawCall(method: string, url: string, token?: string) {
    const res = await fetch(`${t.url}${url}`, {
      method,
      headers: { ...(token ? { [TOKEN_NAME]: token } : {}), ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      body: method === 'GET' ? undefined : '{}',
    });
    const type = res.headers.get('content-type') ?? '';
    return type.includes('application/json') ? ((await res.json()) as { code: number; msg: string }) : { code: 0, msg: type };
  }

  it('every /api/admin route is declared with a role and refuses everyone below it (role matrix)', async () => {
    const declared = t.container.admin.routes.declared;
    const routes = registeredRoutes(t.app).filter((r) => r.url.startsWith('/api/admin') && r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThanOrEqual(6);
    // Declared through adminRoute and nothing else: no route under /api/admin without a role, and no update/delete verbs.
    for (const r of routes)
      expect(
        declared.find((d) => d.method === r.method && d.url === r.url),
        `${r.method} ${r.url}`,
      ).toBeDefined();
    expect(routes.every((r) => r.method === 'GET' || r.method === 'POST')).toBe(true);

    const normal = await loginByPhone(t);
    const admins = Object.fromEntries(await Promise.all(adminRoles.map(async (role) => [role, await loginAdmin(t, role)] as const))) as Record<AdminRole, TestAdmin>;
    const wrong: string[] = [];
    for (const route of declared) {
      const anon = await rawCall(route.method, route.url);
      if (anon.code !== ErrorCode.NOT_LOGGED_IN) wrong.push(`${route.method} ${route.url} anonymous -> ${anon.code}`);
      const user = await rawCall(route.method, route.url, normal.tokenValue);
      if (user.code !== ErrorCode.ADMIN_FORBIDDEN || user.msg !== '无权限访问管理后台') wrong.push(`${route.method} ${route.url} normal user -> ${user.code} ${user.msg}`);
      for (const role of adminRoles) {
        const res = await rawCall(route.method, route.url, admins[role].token);
        const allowed = adminRoleAtLeast(role, route.role);
        if (allowed && (res.code === ErrorCode.ADMIN_FORBIDDEN || res.code === ErrorCode.NOT_LOGGED_IN || res.code === ErrorCode.SERVER_ERROR)) {
          wrong.push(`${route.method} ${route.url} ${role} (needs ${route.role}) refused -> ${res.code} ${res.msg}`);
        }
        if (!allowed && res.code !== ErrorCode.ADMIN_FORBIDDEN) wrong.push(`${route.method} ${route.url} ${role} (needs ${route.role}) -> ${res.code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a route under /api/admin registered without adminRoute stops start-up', async () => {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    await expect(
      app.register(
        async (api) => {
          t.container.admin.routes.enforceOn(api);
          api.get('/admin/sneaky', async () => 'x');
        },
        { prefix: '/api' },
      ),
    ).rejects.toThrow(/adminRoute/);
    await app.close().catch(() => undefined);
  });

  it('writes need an SMS code again after the idle window; reads only after the session maximum', async () => {
    const owner = await loginAdmin(t, 'owner');
    const target = await loginByPhone(t);
    const grant = (role: AdminRole | null) => t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: target.user.id, role } });

    const me = await t.call<AdminMe>('GET', '/admin/me', { token: owner.token });
    expect(me.data).toMatchObject({ userId: owner.userId, role: 'owner', idleMinutes: 30 });
    expect(me.data.verifiedUntil).not.toBeNull();
    expect((await grant('viewer')).code).toBe(0);

    t.clock.advance(31 * MIN);
    const idle = await grant('support');
    expect(idle.code).toBe(ErrorCode.ADMIN_REAUTH_REQUIRED);
    expect(idle.msg).toContain('短信验证码');
    // Reading is still allowed, and does not revive the lapsed window.
    expect((await t.call('GET', '/admin/audit', { token: owner.token })).code).toBe(0);
    expect((await t.call<AdminMe>('GET', '/admin/me', { token: owner.token })).data.verifiedUntil).toBeNull();
    expect((await grant('support')).code).toBe(ErrorCode.ADMIN_REAUTH_REQUIRED);

    expect((await t.call('POST', '/admin/reauth', { token: owner.token, body: { code: '12' } })).code).toBe(ErrorCode.VALIDATION);
    expect((await t.call('POST', '/admin/reauth/send', { token: owner.token })).code).toBe(0);
    expect((await t.call('POST', '/admin/reauth', { token: owner.token, body: { code: '000000' === (await latestCode(t, owner.phone)) ? '111111' : '000000' } })).code).toBe(
      ErrorCode.SMS_CODE_WRONG,
    );
    const renewed = await t.call<AdminMe>('POST', '/admin/reauth', { token: owner.token, body: { code: await latestCode(t, owner.phone) } });
    expect(renewed.code).toBe(0);
    expect(renewed.data.verifiedUntil).not.toBeNull();
    expect((await grant('support')).code).toBe(0);

    // Activity inside the window slides it.
    t.clock.advance(20 * MIN);
    expect((await t.call('GET', '/admin/me', { token: owner.token })).code).toBe(0);
    expect((await t.call('GET', '/admin/audit', { token: owner.token })).code).toBe(0);
    t.clock.advance(20 * MIN);
    expect((await grant('operator')).code).toBe(0);

    // Past the console session's maximum age even reads need the code; the login session itself is still live.
    t.clock.advance(13 * 60 * MIN);
    expect((await t.call('GET', '/admin/audit', { token: owner.token })).code).toBe(ErrorCode.ADMIN_REAUTH_REQUIRED);
    expect((await t.call('GET', '/auth/isLogin', { token: owner.token })).data).toBe(true);
    expect((await t.call('POST', '/admin/reauth/send', { token: owner.token })).code).toBe(0);
    expect((await t.call('POST', '/admin/reauth', { token: owner.token, body: { code: await latestCode(t, owner.phone) } })).code).toBe(0);
    expect((await t.call('GET', '/admin/audit', { token: owner.token })).code).toBe(0);
    expect((await grant(null)).code).toBe(0);
  });

  it('role changes by an owner are audited with before and after; nobody changes their own role; others are refused', async () => {
    const owner = await loginAdmin(t, 'owner');
    const operator = await loginAdmin(t, 'operator');
    const target = await loginByPhone(t);

    const ownRole = await t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: owner.userId, role: 'viewer' } });
    expect(ownRole.code).toBe(ErrorCode.FORBIDDEN);
    const byOperator = await t.call('POST', '/admin/users/role', { token: operator.token, body: { userId: target.user.id, role: 'owner' } });
    expect(byOperator.code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    expect(byOperator.msg).toContain('所有者');
    const bad = await t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: target.user.id, role: 'god' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('role');
    expect((await t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: 99_999_999, role: 'viewer' } })).code).toBe(ErrorCode.NOT_FOUND);

    expect((await t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: target.user.id, role: 'support' } })).data).toEqual({
      userId: target.user.id,
      role: 'support',
    });
    // The new support can now open the console.
    expect((await t.call<AdminMe>('GET', '/admin/me', { token: target.tokenValue })).data.role).toBe('support');

    const log = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: owner.token, query: { targetType: 'user', targetId: String(target.user.id) } });
    expect(log.data.records).toHaveLength(1);
    expect(log.data.records[0]).toMatchObject({ actorId: owner.userId, actorRole: 'owner', action: 'role.grant', before: { role: null }, after: { role: 'support' } });
    expect(log.data.records[0]!.ip).toBeTruthy();
    // The CLI grant of the owner itself is in the log too, without a console actor.
    const cli = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: owner.token, query: { action: 'role.grant', targetId: String(owner.userId) } });
    expect(cli.data.records[0]).toMatchObject({ actorId: null, actorRole: null, after: { role: 'owner' } });
    // Filtered by actor and time.
    const mine = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', {
      token: owner.token,
      query: { actor: owner.userId, from: '2000-01-01', to: new Date(t.clock.now().getTime() + MIN).toISOString() },
    });
    expect(mine.data.records.map((r) => r.action)).toEqual(['role.grant']);
    const none = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: owner.token, query: { actor: owner.userId, to: '2000-01-01' } });
    expect(none.data.total).toBe(0);
    expect((await t.call('GET', '/admin/audit', { token: owner.token, query: { from: 'yesterday' } })).code).toBe(ErrorCode.VALIDATION);

    const csv = await fetch(`${t.url}/api/admin/audit/export.csv?targetId=${target.user.id}&targetType=user`, { headers: { [TOKEN_NAME]: owner.token } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('role.grant');
    expect(lines[1]).toContain('""role"":""support""');
  });

  it('the audit log cannot be changed or emptied, not even by SQL', async () => {
    const owner = await loginAdmin(t, 'owner');
    const target = await loginByPhone(t);
    expect((await t.call('POST', '/admin/users/role', { token: owner.token, body: { userId: target.user.id, role: 'viewer' } })).code).toBe(0);
    const { db } = t.container;
    await expect(db.execute(sql`update admin_audit set action = 'nothing'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from admin_audit`)).rejects.toThrow();
    await expect(db.execute(sql`truncate admin_audit`)).rejects.toThrow();
    const count = await db.execute(sql`select count(*)::int as n from admin_audit where action = 'role.grant'`);
    expect(Number((count as unknown as { rows: Array<{ n: number }> }).rows[0]!.n)).toBeGreaterThan(0);
  });
});
