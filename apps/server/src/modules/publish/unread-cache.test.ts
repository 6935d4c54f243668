import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { platformAccounts } from '../../db/schema/index.js';

/** The per-account unread poll is answered from memory; every write to the account (a sync, an unbind, a lapse) drops it. */
describeOnDatabases('account unread cache on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const counts = (n: number) => ({ unread_count: n, likes: n + 1, connections: 0, mentions: 0 });
  const poll = (token: string, accountId: number) => t.call<ReturnType<typeof counts>>('GET', '/publish/account/unread', { token, query: { accountId } });

  it('serves the stored counts, follows every write through the repo, and refuses other users and unbound accounts', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const [acct] = await t.container.db
      .insert(platformAccounts)
      .values({ userId: a.user.id, platform: 'sandbox', platformUserId: `u${a.user.id}`, accountName: '甲', unread: counts(1) })
      .returning({ id: platformAccounts.id });
    const id = acct!.id;
    expect((await poll(a.tokenValue, id)).data).toEqual(counts(1));
    // Behind the repo's back: the cached counts stand (what makes the poll cheap)...
    await t.container.db
      .update(platformAccounts)
      .set({ unread: counts(9) })
      .where(eq(platformAccounts.id, id));
    expect((await poll(a.tokenValue, id)).data).toEqual(counts(1));
    // ...a sync writing through the repo is seen at once.
    await t.container.publishing.repo.updateAccount(id, { unread: counts(2), lastSyncedAt: new Date() });
    expect((await poll(a.tokenValue, id)).data).toEqual(counts(2));
    expect((await poll(b.tokenValue, id)).code).toBe(ErrorCode.NOT_FOUND);
    await t.container.publishing.repo.updateAccount(id, { unboundAt: new Date() });
    expect((await poll(a.tokenValue, id)).code).toBe(ErrorCode.NOT_FOUND);
  });
});
