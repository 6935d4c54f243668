import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME, type Envelope, type FeedbackItem, type FeedbackPage, type NoticePage } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { feedback } from '../../db/schema/index.js';
import { commands } from '../../cli/commands.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describeOnDatabases('help and feedback on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The screenshot goes through the ordinary image upload, as the web form does. */
  const uploadPng = async (token: string) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'shot.png');
    const res = (await (await fetch(`${t.url}/api/wx/upload`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd })).json()) as Envelope<{ url: string }>;
    expect(res.code).toBe(0);
    return res.data.url;
  };
  const submit = (token: string, body: unknown) => t.call<FeedbackItem>('POST', '/feedback/submit', { token, body });
  const mine = (token: string) => t.call<FeedbackPage>('GET', '/feedback/list', { token });
  const replies = async (token: string) => (await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { type: 'feedbackReply' } })).data.records;

  it('needs a session', async () => {
    expect((await t.call('POST', '/feedback/submit', { body: { content: '你好' } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await t.call('GET', '/feedback/list')).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('rejects bad input naming the field and stores nothing', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const othersShot = await uploadPng(b.tokenValue);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /content/],
      [{ content: '   ' }, /content/],
      [{ content: '字'.repeat(1001) }, /content.*1000/],
      [{ content: '好', contact: 'x'.repeat(101) }, /contact/],
      [{ content: '好', images: ['a', 'b', 'c', 'd'] }, /images.*3/],
      [{ content: '好', images: ['https://evil.example/x.png'] }, /images/],
      // Someone else's upload is not yours to attach.
      [{ content: '好', images: [othersShot] }, /images/],
    ];
    for (const [body, msg] of cases) {
      const res = await submit(a.tokenValue, body);
      expect(res.code, JSON.stringify(body).slice(0, 80)).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toMatch(msg);
    }
    expect(await t.container.db.select().from(feedback).where(eq(feedback.userId, a.user.id))).toHaveLength(0);
  });

  it('stores feedback with a screenshot and contact, lists only the sender’s own, and an operator reply becomes a feedbackReply notice', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const shot = await uploadPng(a.tokenValue);
    const sent = await submit(a.tokenValue, { content: '  发布到小红书时一直失败，怎么办？ ', images: [shot], contact: '微信 inkstone01' });
    expect(sent.code).toBe(0);
    expect(sent.data).toMatchObject({ content: '发布到小红书时一直失败，怎么办？', images: [shot], contact: '微信 inkstone01', status: 'open', reply: null, repliedAt: null });
    const plain = await submit(a.tokenValue, { content: '希望支持抖音' });
    expect(plain.data).toMatchObject({ images: [], contact: null });

    const list = await mine(a.tokenValue);
    expect(list.data.total).toBe(2);
    expect(list.data.records.map((r) => r.id)).toEqual([plain.data.id, sent.data.id]);
    expect((await mine(b.tokenValue)).data).toMatchObject({ total: 0, records: [] });

    const open = (await commands['feedback:list']!.run(t.container, { status: 'open' })) as Array<{ id: number; userId: number }>;
    expect(open.map((r) => r.id)).toEqual(expect.arrayContaining([sent.data.id, plain.data.id]));
    await expect(commands['feedback:list']!.run(t.container, { status: 'closed' })).rejects.toThrow(/--status/);

    const replied = (await commands['feedback:reply']!.run(t.container, { id: String(sent.data.id), content: '请在账号管理中重新扫码绑定后再试。' })) as {
      status: string;
      notified: boolean;
    };
    expect(replied).toMatchObject({ status: 'replied', notified: true });
    // Running the same command again (an operator's retry) does not notify twice.
    const again = (await commands['feedback:reply']!.run(t.container, { id: String(sent.data.id), content: '请在账号管理中重新扫码绑定后再试。' })) as { notified: boolean };
    expect(again.notified).toBe(false);

    const notices = await replies(a.tokenValue);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ type: 'feedbackReply', title: '你的反馈有了回复', link: '/mine?feedback=mine', read: false });
    expect(notices[0]!.content).toContain('请在账号管理中重新扫码绑定后再试。');
    expect(notices[0]!.content).toContain('发布到小红书时一直失败');
    expect(await replies(b.tokenValue)).toHaveLength(0);

    const after = await mine(a.tokenValue);
    expect(after.data.records.find((r) => r.id === sent.data.id)).toMatchObject({ status: 'replied', reply: '请在账号管理中重新扫码绑定后再试。' });
    expect(after.data.records.find((r) => r.id === sent.data.id)!.repliedAt).not.toBeNull();

    // A follow-up answer is a new reply and a new notice.
    await commands['feedback:reply']!.run(t.container, { id: String(sent.data.id), content: '补充：已修复，请更新后重试。' });
    expect(await replies(a.tokenValue)).toHaveLength(2);

    await expect(commands['feedback:reply']!.run(t.container, { id: '999999', content: '好' })).rejects.toThrow(/999999/);
    await expect(commands['feedback:reply']!.run(t.container, { id: String(plain.data.id) })).rejects.toThrow(/--content/);
  });
});
