import type { AdminRole } from '@inkstone/shared';
import { commands } from '../cli/commands.js';
import type { TestApp } from './app.js';
import { loginByPhone } from './auth-helpers.js';

export interface TestAdmin {
  token: string;
  userId: number;
  phone: string;
}

/** A freshly logged-in user holding `role`, granted the way the first owner is: by the CLI. */
export async function loginAdmin(t: TestApp, role: AdminRole): Promise<TestAdmin> {
  const user = await loginByPhone(t);
  await commands['role:grant']!.run(t.container, { id: String(user.user.id), role });
  return { token: user.tokenValue, userId: user.user.id, phone: user.phone };
}
