import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ErrorCode, type GraphicCardsReply, type GraphicTaskInfo, type MaterialSearchReply, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startPexelsStandin, type PexelsStandin } from '../../test/standins/pexels.js';

async function waitForTask(t: TestApp, token: string, taskId: string): Promise<TaskInfo> {
  for (let i = 0; i < 600; i++) {
    await t.container.jobs.idle();
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
    if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

async function graphicTask(t: TestApp, token: string): Promise<string> {
  const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
    token,
    body: { createType: 'graphic', content: '咖啡入门。先买磨豆机。再学注水。', contentCards: 2 },
  });
  expect(created.code, created.msg).toBe(0);
  expect((await waitForTask(t, token, created.data.taskId)).status).toBe('succeeded');
  return created.data.taskId;
}

describeOnDatabases('material search (Pexels protocol stand-in) on %s', (dbKind) => {
  let t: TestApp;
  let pexels: PexelsStandin;
  let token: string;
  let taskId: string;

  beforeAll(async () => {
    pexels = await startPexelsStandin();
    t = await startTestApp({
      db: dbKind,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        MATERIALS_PROVIDER: 'pexels',
        MATERIALS_BASE_URL: pexels.baseURL,
        MATERIALS_API_KEY: pexels.apiKey,
        // The stand-in's picture URLs are fetched through the SSRF-safe client, which lets only this loopback host through.
        SAFE_FETCH_ALLOW_HOSTS: new URL(pexels.baseURL).host,
      },
    });
    token = (await loginByPhone(t)).tokenValue;
    taskId = await graphicTask(t, token);
  });
  afterAll(async () => {
    await t?.close();
    await pexels?.close();
  });

  it('searches with the key, lists photos without their big picture URL, and a picked photo becomes a real 1080x1440 card PNG', async () => {
    const status = await t.call<{ enabled: boolean; provider: string; reason: string | null }>('GET', '/graphic/material/status', { token });
    expect(status.data).toEqual({ enabled: true, provider: 'pexels', reason: null });
    const found = await t.call<MaterialSearchReply>('GET', '/graphic/material/search', { token, query: { q: '露营' } });
    expect(found.code, found.msg).toBe(0);
    expect(pexels.queries).toContain('露营');
    expect(found.data.total).toBe(4);
    expect(found.data.items).toHaveLength(4);
    expect(found.data.items[0]).toMatchObject({ alt: '露营的照片', author: expect.stringContaining('摄影师') });
    expect(JSON.stringify(found.data)).not.toContain('imageUrl');

    const before = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data.cards[1]!;
    // A landscape photo: cropped to the card, not stretched.
    const landscape = found.data.items.find((p) => p.width > p.height)!;
    const set = await t.call<GraphicCardsReply>('POST', '/graphic/card/image/material', { token, body: { taskId, index: 1, photoId: landscape.id } });
    expect(set.code, set.msg).toBe(0);
    const card = set.data.cards[1]!;
    expect(card.imageUrl).not.toBe(before.imageUrl);
    const png = Buffer.from(await (await fetch(`${t.url}${card.imageUrl}`)).arrayBuffer());
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1440]);
    expect([card.width, card.height]).toEqual([1080, 1440]);
  });

  it('refuses what is not a picture, an inner address, an unknown photo, bad input and another user’s task, leaving the card as it was', async () => {
    const cardBefore = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data.cards[2]!;
    const found = await t.call<MaterialSearchReply>('GET', '/graphic/material/search', { token, query: { q: '咖啡' } });
    const [a, b] = found.data.items;
    pexels.imageOverride.set(a!.id, Buffer.from('这不是图片'.repeat(50)));
    const notImage = await t.call('POST', '/graphic/card/image/material', { token, body: { taskId, index: 2, photoId: a!.id } });
    // The safe client refuses bytes that are not a picture by their magic bytes, whatever the content type says.
    expect(notImage.code).toBe(ErrorCode.OPERATION_FAILED);
    pexels.srcOverride.set(b!.id, 'http://169.254.169.254/latest/meta-data/x.png');
    const inner = await t.call('POST', '/graphic/card/image/material', { token, body: { taskId, index: 2, photoId: b!.id } });
    expect(inner.code).toBe(ErrorCode.OPERATION_FAILED);
    expect(inner.msg).toBe('素材服务暂时不可用，请稍后再试');
    const unknown = await t.call('POST', '/graphic/card/image/material', { token, body: { taskId, index: 2, photoId: '999999' } });
    expect(unknown.code).toBe(ErrorCode.NOT_FOUND);
    const badId = await t.call('POST', '/graphic/card/image/material', { token, body: { taskId, index: 2, photoId: '../x' } });
    expect(badId.code).toBe(ErrorCode.VALIDATION);
    expect(badId.msg).toContain('photoId');
    const emptyQ = await t.call('GET', '/graphic/material/search', { token, query: { q: ' ' } });
    expect(emptyQ.code).toBe(ErrorCode.VALIDATION);
    expect(emptyQ.msg).toContain('q');
    const other = await loginByPhone(t);
    const foreign = await t.call('POST', '/graphic/card/image/material', { token: other.tokenValue, body: { taskId, index: 2, photoId: found.data.items[2]!.id } });
    expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
    const cardAfter = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data.cards[2]!;
    expect(cardAfter.imageUrl).toBe(cardBefore.imageUrl);
  });
});

describe('material search off (MATERIALS_PROVIDER=none, the default)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so in Chinese and refuses with 1006 instead of showing empty results', async () => {
    const status = await t.call<{ enabled: boolean; reason: string }>('GET', '/graphic/material/status', { token });
    expect(status.data.enabled).toBe(false);
    expect(status.data.reason).toContain('素材搜索未开启');
    const search = await t.call('GET', '/graphic/material/search', { token, query: { q: '咖啡' } });
    expect(search.code).toBe(ErrorCode.NOT_CONFIGURED);
    expect(search.msg).toContain('素材搜索未开启');
    const taskId = await graphicTask(t, token);
    const set = await t.call('POST', '/graphic/card/image/material', { token, body: { taskId, index: 1, photoId: '1000' } });
    expect(set.code).toBe(ErrorCode.NOT_CONFIGURED);
  });
});
