import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { ErrorCode, TOKEN_NAME, type GraphicCardsReply, type GraphicTaskInfo, type PublishArticleReply, type TaskInfo } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, confirmOnPhone, publishApi, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';

interface SandboxNote {
  id: string;
  title: string;
  body: string;
  images: number;
  imageSha256?: string[];
  topics: string[];
}

async function waitForTask(t: TestApp, token: string, taskId: string): Promise<TaskInfo> {
  for (let i = 0; i < 600; i++) {
    await t.container.jobs.idle();
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
    if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describeOnDatabases('publishing a graphic note as an image note on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let accountId: number;
  let taskId: string;

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
    accountId = (await bindSandboxAccount(t, token, '图文测试账号')).id;
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token,
      body: { createType: 'graphic', content: '周末露营清单。帐篷和睡袋要提前检查。带一盏营地灯。记得防蚊。', contentCards: 2 },
    });
    expect(created.code, created.msg).toBe(0);
    taskId = created.data.taskId;
    expect((await waitForTask(t, token, taskId)).status).toBe('succeeded');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('publishes the cards in order with title, body and topics; the sandbox notes list shows it as an image note', async () => {
    const note = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data;
    const saved = await t.call('POST', '/graphic/draft/save', {
      token,
      body: { taskId, title: '周末露营清单', body: '第一次露营也不慌。\n清单都在图里。', tags: ['露营', '户外'] },
    });
    expect(saved.code, saved.msg).toBe(0);
    const res = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body: { accountIds: [accountId], graphicTaskId: taskId } });
    expect(res.code, res.msg).toBe(0);
    const done = await waitForPublish(t, token, res.data.publishId, allFinished, 90_000);
    expect(done.jobs.map((j) => [j.status, j.error])).toEqual([['succeeded', null]]);

    const all = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: SandboxNote[] } };
    const published = all.data.notes.find((n) => n.title === '周末露营清单')!;
    expect(published).toMatchObject({ images: note.cards.length, topics: ['露营', '户外'] });
    // A form's textarea submits line breaks as CRLF.
    expect(published.body.replace(/\r\n/g, '\n')).toBe('第一次露营也不慌。\n清单都在图里。');
    const cardShas = await Promise.all(note.cards.map(async (c) => sha(Buffer.from(await (await fetch(`${t.url}${c.imageUrl}`)).arrayBuffer()))));
    expect(published.imageSha256).toEqual(cardShas);

    // The creator's own notes list (what the account sees) proves it is an image note with its images and topics.
    const cookie = await sandboxCreatorCookie(t, '图文测试账号');
    const list = await (await fetch(`${t.url}/sandbox-platform/notes`, { headers: { cookie } })).text();
    expect(list).toContain(`data-images="${note.cards.length}"`);
    expect(list).toContain(`图文 · ${note.cards.length}张图`);
    expect(list).toContain('#露营 #户外');
    const detail = await (await fetch(`${t.url}/sandbox-platform/notes/${published.id}`)).text();
    expect(detail.match(/class="note-image"/g)).toHaveLength(note.cards.length);
  });

  it('an image editor export at 1:1 or 4:3 is stored at that shape, reported by task info, and published with those pixels', async () => {
    const upload = async (index: number, aspect: string) => {
      const form = new FormData();
      // A 3:4-ish picture: the server crops it to the asked shape, so the stored size proves the aspect was kept.
      const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: index === 0 ? '#c33' : '#36c' } })
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'card.png');
      const res = await fetch(`${t.url}/api/graphic/card/image/upload?taskId=${taskId}&index=${index}&aspect=${encodeURIComponent(aspect)}`, {
        method: 'POST',
        headers: { [TOKEN_NAME]: token },
        body: form,
      });
      return (await res.json()) as { code: number; msg: string; data: GraphicCardsReply };
    };
    const bad = await upload(0, '16:9');
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('aspect');
    expect((await upload(0, '1:1')).code).toBe(0);
    const wide = await upload(1, '4:3');
    expect(wide.code, wide.msg).toBe(0);

    const note = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data;
    expect(note.cards.slice(0, 3).map((c) => [c.width, c.height])).toEqual([
      [1080, 1080],
      [1440, 1080],
      [1080, 1440],
    ]);
    const bytes = await Promise.all(note.cards.map(async (c) => Buffer.from(await (await fetch(`${t.url}${c.imageUrl}`)).arrayBuffer())));
    for (const [i, b] of bytes.entries()) {
      const meta = await sharp(b).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', note.cards[i]!.width, note.cards[i]!.height]);
    }

    const saved = await t.call('POST', '/graphic/draft/save', { token, body: { taskId, title: '方图和横图', body: '裁成方图和横图再发布。', tags: ['露营', '户外'] } });
    expect(saved.code, saved.msg).toBe(0);
    const res = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body: { accountIds: [accountId], graphicTaskId: taskId } });
    expect(res.code, res.msg).toBe(0);
    const done = await waitForPublish(t, token, res.data.publishId, allFinished, 90_000);
    expect(done.jobs.map((j) => [j.status, j.error])).toEqual([['succeeded', null]]);
    const all = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: SandboxNote[] } };
    const published = all.data.notes.find((n) => n.title === '方图和横图')!;
    expect(published.imageSha256).toEqual(bytes.map(sha));
  });

  it('refuses before queueing with clear messages: 21-character title, 19 images, a file that is not an image', async () => {
    const title = await t.call('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [accountId], graphicTaskId: taskId, content: { title: '一'.repeat(21), body: '正文', images: [PNG_DATA_URL] } },
    });
    expect(title.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(title.msg).toContain('标题最多20字（当前21字）');
    const many = await t.call('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [accountId], content: { kind: 'image', title: '十九张图', body: '正文', images: Array.from({ length: 19 }, () => PNG_DATA_URL) } },
    });
    expect(many.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(many.msg).toContain('最多18张图片（当前19张）');
    const fake = `data:image/png;base64,${Buffer.from('这不是图片，只是文字').toString('base64')}`;
    const notImage = await t.call('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [accountId], content: { kind: 'image', title: '假图片', body: '正文', images: [PNG_DATA_URL, fake] } },
    });
    expect(notImage.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
    expect(notImage.msg).toBe('第2张图片：请上传jpg、jpeg、png、gif格式的文件');
    const other = await loginByPhone(t);
    const foreign = await t.call('POST', publishApi(t, '/publish/article'), { token: other.tokenValue, body: { accountIds: [accountId], graphicTaskId: taskId } });
    expect(foreign.code).not.toBe(0);
  });
});

/** Logs in to the sandbox creator site as `identity` over plain HTTP (QR page, phone confirmation, finish) for its cookie. */
async function sandboxCreatorCookie(t: TestApp, identity: string): Promise<string> {
  const login = await (await fetch(`${t.url}/sandbox-platform/login`)).text();
  const ticket = /data-ticket="([^"]+)"/.exec(login)![1]!;
  await confirmOnPhone(`${t.url}/sandbox-platform/m/scan?ticket=${encodeURIComponent(ticket)}`, identity);
  const finish = await fetch(`${t.url}/sandbox-platform/login/finish?ticket=${encodeURIComponent(ticket)}`, { redirect: 'manual' });
  return /sbx_session=[^;]+/.exec(finish.headers.get('set-cookie') ?? '')![0];
}
