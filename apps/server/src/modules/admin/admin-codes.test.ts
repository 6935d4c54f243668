import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME, type AdminAuditEntry, type AdminCodeBatch, type AdminRedemption, type Page } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin } from '../../test/admin-helpers.js';
import { loginByPhone } from '../../test/auth-helpers.js';

describeOnDatabases('console redeem codes on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function exportCsv(token: string, batch: string) {
    const res = await fetch(`${t.url}/api/admin/codes/export.csv?batch=${encodeURIComponent(batch)}`, { headers: { [TOKEN_NAME]: token } });
    return { type: res.headers.get('content-type') ?? '', text: await res.text() };
  }

  it('an operator mints a batch, exports it, users redeem through the shop flow, the redemption list shows them; audited without the codes', async () => {
    const op = await loginAdmin(t, 'operator');
    const made = await t.call<AdminCodeBatch>('POST', '/admin/codes/generate', { token: op.token, body: { kind: 'points', value: 30, count: 3, maxUses: 1, batch: 'spring-e2e' } });
    expect(made.code, made.msg).toBe(0);
    expect(made.data).toMatchObject({ batch: 'spring-e2e', kind: 'points', value: 30, codes: 3, used: 0, disabled: false, maxUses: 1 });

    const csv = await exportCsv(op.token, 'spring-e2e');
    expect(csv.type).toContain('text/csv');
    const codes = csv.text
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(',')[0]!);
    expect(codes).toHaveLength(3);

    const user = await loginByPhone(t);
    const redeemed = await t.call<{ kind: string; score: number }>('POST', '/vip/coupon-code/exchange', { token: user.tokenValue, body: { code: codes[0] } });
    expect(redeemed.code, redeemed.msg).toBe(0);
    expect(redeemed.data.score).toBe(30);

    const list = await t.call<Page<AdminRedemption>>('GET', '/admin/codes/redemptions', { token: op.token, query: { batch: 'spring-e2e' } });
    expect(list.data.records).toEqual([expect.objectContaining({ code: codes[0], userId: user.user.id, kind: 'points', value: 30 })]);
    const batches = await t.call<Page<AdminCodeBatch>>('GET', '/admin/codes/batches', { token: op.token });
    expect(batches.data.records.find((b) => b.batch === 'spring-e2e')).toMatchObject({ codes: 3, used: 1 });

    const audit = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action: 'codes.generate' } });
    const [entry] = audit.data.records;
    expect(entry).toMatchObject({ actorId: op.userId, targetType: 'code_batch', targetId: 'spring-e2e', after: expect.objectContaining({ count: 3, value: 30 }) });
    for (const c of codes) expect(JSON.stringify(entry)).not.toContain(c);

    const again = await t.call('POST', '/admin/codes/generate', { token: op.token, body: { kind: 'points', value: 1, count: 1, batch: 'spring-e2e' } });
    expect(again.code).toBe(ErrorCode.CONFLICT);
  });

  it('a disabled batch can no longer be redeemed; the disable is audited; unknown batches and bad input are refused', async () => {
    const op = await loginAdmin(t, 'operator');
    const made = await t.call<AdminCodeBatch>('POST', '/admin/codes/generate', { token: op.token, body: { kind: 'vip_days', value: 7, count: 1 } });
    expect(made.code, made.msg).toBe(0);
    const [code] = (await exportCsv(op.token, made.data.batch)).text
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(',')[0]!);

    const disabled = await t.call<AdminCodeBatch>('POST', '/admin/codes/disable', { token: op.token, body: { batch: made.data.batch } });
    expect(disabled.data.disabled).toBe(true);
    const user = await loginByPhone(t);
    expect((await t.call('POST', '/vip/coupon-code/exchange', { token: user.tokenValue, body: { code } })).code).toBe(ErrorCode.CODE_INVALID);
    const audit = await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action: 'codes.disable', targetId: made.data.batch } });
    expect(audit.data.records).toEqual([expect.objectContaining({ before: { disabled: false, used: 0 }, after: { disabled: true } })]);

    expect((await t.call('POST', '/admin/codes/disable', { token: op.token, body: { batch: 'no-such-batch' } })).code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t.call('POST', '/admin/codes/generate', { token: op.token, body: { kind: 'points', value: 10, count: 0 } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('count');
  });

  it('support reads batches and redemptions but cannot mint, export or disable', async () => {
    const support = await loginAdmin(t, 'support');
    expect((await t.call('GET', '/admin/codes/batches', { token: support.token })).code).toBe(0);
    expect((await t.call('GET', '/admin/codes/redemptions', { token: support.token })).code).toBe(0);
    expect((await t.call('POST', '/admin/codes/generate', { token: support.token, body: { kind: 'points', value: 1, count: 1 } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    expect((await t.call('POST', '/admin/codes/disable', { token: support.token, body: { batch: 'spring-e2e' } })).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    const csv = await fetch(`${t.url}/api/admin/codes/export.csv?batch=spring-e2e`, { headers: { [TOKEN_NAME]: support.token } });
    expect(((await csv.json()) as { code: number }).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
  });
});
