import { desc, eq } from 'drizzle-orm';
import { smsOutbox } from '../db/schema/index.js';
import type { LoginResult } from '@inkstone/shared';
import { nextIp, type TestApp } from './app.js';

let phoneCounter = 0;
/** A distinct valid mainland number per call. */
export const nextPhone = () => `139${String(Date.now() % 1e4).padStart(4, '0')}${String(++phoneCounter).padStart(4, '0')}`;

/** The latest code the outbox adapter "sent" to this phone. */
export async function latestCode(t: TestApp, phone: string): Promise<string> {
  const [row] = await t.container.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone)).orderBy(desc(smsOutbox.id)).limit(1);
  if (!row) throw new Error(`no sms sent to ${phone}`);
  return row.code;
}

/** Logs a (new or existing) user in through the real SMS flow. */
export async function loginByPhone(t: TestApp, phone = nextPhone(), extra: Record<string, string> = {}): Promise<LoginResult & { phone: string }> {
  const ip = nextIp();
  const sent = await t.call('GET', '/auth/send/msg', { query: { phone }, ip });
  if (sent.code !== 0) throw new Error(`send failed: ${sent.msg}`);
  const code = await latestCode(t, phone);
  const res = await t.call<LoginResult>('POST', '/auth/doLogin0', { body: { phone, code, ...extra }, ip });
  if (res.code !== 0) throw new Error(`login failed: ${res.msg}`);
  return { ...res.data, phone };
}
