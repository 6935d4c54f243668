import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME, type DraftDetail, type Persona } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { users } from '../../db/schema/index.js';

describeOnDatabases('drafts and personas on %s', (dbKind) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof loginByPhone>>;

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    user = await loginByPhone(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('drafts: save (autosave), list, detail, export docx and md, delete', async () => {
    const saved = await t.call<DraftDetail>('POST', '/writing/draft/save', {
      token: user.tokenValue,
      body: { title: '我的草稿', markdown: '# 我的草稿\n\n第一段**重点**。\n\n- 要点一\n- 要点二' },
    });
    expect(saved.code).toBe(0);
    expect(saved.data.html).toContain('<strong>重点</strong>');
    const updated = await t.call<DraftDetail>('POST', '/writing/draft/save', {
      token: user.tokenValue,
      body: { id: saved.data.id, title: '改过的标题', html: '<h1>改过的标题</h1><p>新的正文</p><script>alert(1)</script>' },
    });
    expect(updated.data.markdown).toContain('新的正文');
    expect(updated.data.markdown).not.toContain('alert');
    const list = await t.call<{ records: Array<{ id: number; title: string }>; total: number }>('GET', '/writing/draft/list', {
      token: user.tokenValue,
      query: { pageNum: 1, pageSize: 5 },
    });
    expect(list.data.records[0]).toMatchObject({ id: saved.data.id, title: '改过的标题' });

    const docx = await fetch(`${t.url}/api/writing/draft/export?id=${saved.data.id}&format=docx`, { headers: { [TOKEN_NAME]: user.tokenValue } });
    expect(docx.headers.get('content-type')).toContain('wordprocessingml');
    expect(docx.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('改过的标题.docx')}`);
    const bytes = Buffer.from(await docx.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const mammoth = await import('mammoth');
    expect((await mammoth.default.extractRawText({ buffer: bytes })).value).toContain('新的正文');
    const md = await fetch(`${t.url}/api/writing/draft/export?id=${saved.data.id}&format=md`, { headers: { [TOKEN_NAME]: user.tokenValue } });
    expect(md.headers.get('content-disposition')).toContain('attachment');
    expect(await md.text()).toContain('# 改过的标题');

    expect((await t.call('POST', '/writing/draft/delete', { token: user.tokenValue, body: { id: saved.data.id } })).code).toBe(0);
    expect((await t.call('GET', '/writing/draft/detail', { token: user.tokenValue, query: { id: saved.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/writing/draft/delete', { token: user.tokenValue, body: { id: saved.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('personas: CRUD, firstCreatePersona, another user cannot read one, validation', async () => {
    const u = await loginByPhone(t);
    expect((await t.call<{ firstCreatePersona: boolean }>('GET', '/auth/nowLoginUser', { token: u.tokenValue })).data).toBeTruthy();
    const saved = await t.call<Persona>('POST', '/persona/save', {
      token: u.tokenValue,
      body: { name: '骑行博主', platform: '小红书', industry: '运动', audience: '城市上班族', tone: '轻松', tabooWords: ['省钱'], sampleTexts: ['今天又骑车上班啦！'] },
    });
    expect(saved.code).toBe(0);
    const [row] = await t.container.db.select({ f: users.firstCreatePersona }).from(users).where(eq(users.id, u.user.id));
    expect(row!.f).toBe(true);
    const edited = await t.call<Persona>('POST', '/persona/save', { token: u.tokenValue, body: { id: saved.data.id, name: '骑行博主2', tone: '幽默' } });
    expect(edited.data).toMatchObject({ name: '骑行博主2', tone: '幽默' });
    expect((await t.call<Persona[]>('GET', '/persona/list', { token: u.tokenValue })).data).toHaveLength(1);
    expect((await t.call<Persona>('GET', '/persona/detail', { token: u.tokenValue, query: { id: saved.data.id } })).data.name).toBe('骑行博主2');
    expect((await t.call('GET', '/persona/detail', { token: user.tokenValue, query: { id: saved.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/persona/save', { token: u.tokenValue, body: { name: '' } })).code).toBe(ErrorCode.VALIDATION);

    expect((await t.call('POST', '/persona/delete', { token: u.tokenValue, body: { id: saved.data.id } })).code).toBe(0);
    expect((await t.call<Persona[]>('GET', '/persona/list', { token: u.tokenValue })).data).toEqual([]);
    expect((await t.call('POST', '/persona/delete', { token: u.tokenValue, body: { id: saved.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
  });
});
