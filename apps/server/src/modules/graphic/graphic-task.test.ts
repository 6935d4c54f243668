import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { unzipSync } from 'fflate';
import {
  ErrorCode,
  TOKEN_NAME,
  graphicLimits,
  noteTextLength,
  type DraftItem,
  type GraphicCardsReply,
  type GraphicTaskInfo,
  type ImagegenStatus,
  type TaskInfo,
} from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { startImagesStandin, type ImagesStandin } from '../../test/standins/openai-images.js';
import { pointsLedger, users } from '../../db/schema/index.js';

async function balance(t: TestApp, userId: number) {
  const [row] = await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, userId));
  return row!.b;
}

async function waitForTask(t: TestApp, token: string, taskId: string): Promise<TaskInfo> {
  await t.container.jobs.idle();
  for (let i = 0; i < 600; i++) {
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
    if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
    await new Promise((r) => setTimeout(r, 50));
    await t.container.jobs.idle();
  }
  throw new Error('task did not finish');
}

const ledger = (t: TestApp, pattern: string) => t.container.db.select().from(pointsLedger).where(like(pointsLedger.idempotencyKey, pattern));

/** Every card's picture is served, is a real PNG and is 1080x1440 (read by sharp, not by our own code). */
async function expectRealCards(t: TestApp, cards: GraphicTaskInfo['cards']) {
  for (const c of cards) {
    expect(c.imageUrl).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}\.png$/);
    const res = await fetch(`${t.url}${c.imageUrl}`);
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1440]);
  }
}

/** A model that answers the graphic plan with JSON whose title and tags break the rules (the server must clamp them). */
function planResponder(body: ChatRequestBody) {
  const user = body.messages.at(-1)!.content;
  if (user.includes('小红书图文笔记')) {
    return {
      content: `好的，这是方案：\`\`\`json\n${JSON.stringify({
        title: '秋天一定要去的五个城市公园，每一个都美到不想回家',
        body: '秋天来了🍂 整理了五个适合周末散步的城市公园。\n每个都附上最佳拍照时间和路线。',
        tags: ['#秋天', '城市公园', '周末去哪儿', '拍照', '散步', '银杏', '枫叶', '旅行', '生活', '摄影', '秋日', '治愈'],
        cards: [
          { template: 'cover', heading: '五个秋日公园', text: '周末散步指南', imagePrompt: '秋天公园', picture: 'card' },
          { template: 'list', heading: '公园清单', text: '奥森公园\n颐和园\n香山\n玉渊潭\n朝阳公园', imagePrompt: '公园地图', picture: 'ai' },
          { template: 'steps', heading: '拍照路线', text: '早上八点进园\n先去湖边\n中午找银杏大道', imagePrompt: '银杏大道', picture: 'ai' },
          { template: 'comparison', heading: '人多还是人少', text: '工作日 | 周末\n人少 | 人多\n光线好 | 热闹', imagePrompt: '', picture: 'card' },
          { template: 'nonsense', heading: '注意事项', text: '带水，穿舒服的鞋', imagePrompt: '', picture: 'card' },
        ],
      })}\n\`\`\``,
    };
  }
  return { content: '收到。' };
}

describeOnDatabases('graphic tasks (图文) on %s', (dbKind) => {
  let t: TestApp;
  let llm: OpenAiStandin;
  let images: ImagesStandin;
  let user: Awaited<ReturnType<typeof loginByPhone>>;
  let offlineTask: string;
  const grant = (userId: number, amount: number) => t.container.services.points.grant(userId, amount, { reason: 'test', idempotencyKey: `test:${userId}:${Math.random()}` });

  beforeAll(async () => {
    llm = await startOpenAiStandin({ model: 'standin-chat' });
    llm.respond = planResponder;
    images = await startImagesStandin();
    t = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: llm.baseURL, apiKey: llm.apiKey, model: 'standin-chat' }]),
        LLM_DEFAULT_MODEL: 'offline',
        LLM_RETRY_BASE_MS: '1',
        RATE_LIMIT_PER_MINUTE: '100000',
        IMAGEGEN_PROVIDER: 'openai',
        IMAGEGEN_BASE_URL: images.baseURL,
        IMAGEGEN_API_KEY: images.apiKey,
        IMAGEGEN_MODEL: 'standin-image',
        IMAGEGEN_SIZE: '768x1024',
        // The stand-in's URL replies are fetched through the SSRF-safe client, which lets only this loopback host through.
        SAFE_FETCH_ALLOW_HOSTS: new URL(images.baseURL).host,
      },
    });
    user = await loginByPhone(t);
    await grant(user.user.id, 1000);
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await images?.close();
  });

  it('offline writer: a free task writes a note within the rules and renders real 1080x1440 PNG cards; a 图文 draft is listed', async () => {
    const before = await balance(t, user.user.id);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: {
        createType: 'graphic',
        content: '写一篇周末在家做手冲咖啡的图文。准备手冲壶和磨豆机。水温控制在92度左右。先闷蒸30秒再分段注水。新手可以从中度烘焙的豆子开始。记得每次记录参数。',
        themeId: 'ink',
      },
    });
    expect(created.code, created.msg).toBe(0);
    offlineTask = created.data.taskId;
    const task = await waitForTask(t, user.tokenValue, offlineTask);
    expect(task).toMatchObject({ status: 'succeeded', kind: 'graphic', generatedBy: 'offline', pointsCharged: 0 });
    expect(await balance(t, user.user.id)).toBe(before);

    const info = await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token: user.tokenValue, query: { taskId: offlineTask } });
    expect(info.code).toBe(0);
    const note = info.data;
    expect(note.title.length).toBeGreaterThan(0);
    expect(noteTextLength(note.title)).toBeLessThanOrEqual(20);
    expect(noteTextLength(note.body)).toBeLessThanOrEqual(1000);
    expect(note.tags.length).toBeGreaterThanOrEqual(3);
    expect(note.tags.length).toBeLessThanOrEqual(10);
    expect(note.cards.length).toBeGreaterThanOrEqual(3);
    expect(note.cards.length).toBeLessThanOrEqual(18);
    expect(note.cards[0]).toMatchObject({ index: 0, templateId: 'cover', themeId: 'ink', source: 'card', width: 1080, height: 1440 });
    // The user's own words are on the cards.
    expect(note.cards.map((c) => `${c.heading}${c.text}`).join('')).toContain('92度');
    await expectRealCards(t, note.cards);

    const drafts = await t.call<{ records: DraftItem[] }>('GET', '/writing/draft/list', { token: user.tokenValue });
    expect(drafts.data.records.find((d) => d.id === note.draftId)).toMatchObject({ createType: 'graphic', taskId: offlineTask, title: note.title });
  });

  it('model stand-in: charged 图文生成 10 once; an over-long title and 12 tags are clamped to 20 and 10; unknown templates become paragraph', async () => {
    const before = await balance(t, user.user.id);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'graphic', content: '秋天的城市公园推荐', modelConfigType: 'standin' },
    });
    expect(created.code, created.msg).toBe(0);
    expect(await balance(t, user.user.id)).toBe(before - 10);
    const task = await waitForTask(t, user.tokenValue, created.data.taskId);
    expect(task).toMatchObject({ status: 'succeeded', generatedBy: 'ai', pointsCharged: 10 });
    const note = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token: user.tokenValue, query: { taskId: created.data.taskId } })).data;
    expect(noteTextLength(note.title)).toBeLessThanOrEqual(20);
    expect(note.title.startsWith('秋天一定要去的五个城市公园')).toBe(true);
    expect(note.tags).toHaveLength(10);
    expect(note.tags[0]).toBe('秋天');
    expect(note.cards.map((c) => c.templateId)).toEqual(['cover', 'list', 'steps', 'comparison', 'paragraph']);
    // pictureMode defaults to card: no AI picture, no ai_image charge.
    expect(note.cards.every((c) => c.source === 'card')).toBe(true);
    await expectRealCards(t, note.cards);
    expect(await ledger(t, `%${created.data.taskId}%`)).toEqual([expect.objectContaining({ kind: 'charge', delta: -10, reason: 'graphic' })]);
    expect(await balance(t, user.user.id)).toBe(before - 10);
  });

  it('a failing model fails the task and refunds the 10 points exactly once', async () => {
    const before = await balance(t, user.user.id);
    for (let i = 0; i < 4; i++) llm.script.push({ kind: 'http-error', status: 500, error: { message: 'upstream broke', type: 'server_error' } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'graphic', content: '秋天的城市公园推荐', modelConfigType: 'standin' },
    });
    expect(created.code).toBe(0);
    const task = await waitForTask(t, user.tokenValue, created.data.taskId);
    llm.script.length = 0;
    expect(task).toMatchObject({ status: 'failed', errorCode: ErrorCode.AI_UPSTREAM_FAILED });
    expect(await balance(t, user.user.id)).toBe(before);
    const rows = await ledger(t, `%task:${created.data.taskId}`);
    expect(rows.map((r) => [r.kind, r.delta]).sort()).toEqual([
      ['charge', -10],
      ['refund', 10],
    ]);
  });

  it('AI pictures: the cards the plan marks get real AI pictures (5 points each); a failed picture falls back to a card and is refunded', async () => {
    const status = await t.call<ImagegenStatus>('GET', '/graphic/imagegen/status', { token: user.tokenValue });
    expect(status.data).toMatchObject({ enabled: true, provider: 'openai', pointsPerImage: 5 });
    const before = await balance(t, user.user.id);
    // The plan marks cards 2 and 3 for AI: the first picture comes back as a URL (fetched through the safe client),
    // the second names a file the stand-in does not have.
    images.script.push({ kind: 'as-url' }, { kind: 'url', url: `${new URL(images.baseURL).origin}/files/missing.png` });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'graphic', content: '秋天的城市公园推荐', modelConfigType: 'standin', pictureMode: 'ai' },
    });
    expect(created.code, created.msg).toBe(0);
    const task = await waitForTask(t, user.tokenValue, created.data.taskId);
    expect(task.status).toBe('succeeded');
    const note = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token: user.tokenValue, query: { taskId: created.data.taskId } })).data;
    const sources = note.cards.map((c) => c.source);
    expect(sources.filter((s) => s === 'ai')).toHaveLength(1);
    expect(sources[0]).toBe('card');
    await expectRealCards(t, note.cards);
    // 10 for the task, 5 + 5 for two pictures, 5 back for the one that failed.
    expect(await balance(t, user.user.id)).toBe(before - 15);
    const rows = await ledger(t, `%aiimg:${created.data.taskId}:%`);
    expect(rows.map((r) => r.delta).sort((a, b) => a - b)).toEqual([-5, -5, 5]);
  });

  it('AI picture for one card: charged 5, stored as a real PNG; a refused picture (not an image / inner address) is refunded with a clear message', async () => {
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'graphic', content: '秋天的城市公园推荐', modelConfigType: 'standin' },
    });
    await waitForTask(t, user.tokenValue, created.data.taskId);
    const taskId = created.data.taskId;
    let before = await balance(t, user.user.id);
    const made = await t.call<GraphicCardsReply>('POST', '/graphic/card/image/ai', { token: user.tokenValue, body: { taskId, index: 1, prompt: '秋天的银杏大道，暖色调' } });
    expect(made.code, made.msg).toBe(0);
    expect(made.data.cards[1]).toMatchObject({ source: 'ai', imagePrompt: '秋天的银杏大道，暖色调' });
    await expectRealCards(t, [made.data.cards[1]!]);
    expect(await balance(t, user.user.id)).toBe(before - 5);
    expect(images.received.at(-1)).toMatchObject({ model: 'standin-image', prompt: '秋天的银杏大道，暖色调', size: '768x1024', response_format: 'b64_json' });

    before = await balance(t, user.user.id);
    images.script.push({ kind: 'bytes', bytes: Buffer.from('<html>not a picture</html>') });
    const junk = await t.call('POST', '/graphic/card/image/ai', { token: user.tokenValue, body: { taskId, index: 2 } });
    expect(junk.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
    expect(junk.msg).toContain('已退还积分');
    images.script.push({ kind: 'url', url: 'http://10.0.0.1/secret.png' });
    const inner = await t.call('POST', '/graphic/card/image/ai', { token: user.tokenValue, body: { taskId, index: 2 } });
    expect(inner.code).toBe(ErrorCode.AI_UPSTREAM_FAILED);
    images.script.push({ kind: 'http-error', status: 400, error: { message: 'Your request was rejected by the safety system', code: 'content_policy_violation' } });
    const filtered = await t.call('POST', '/graphic/card/image/ai', { token: user.tokenValue, body: { taskId, index: 2 } });
    expect(filtered.code).toBe(ErrorCode.AI_CONTENT_FILTERED);
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('editing: text re-renders, template/theme for all, reorder, add up to 18 then refused, remove, upload checks, library picture, zip', async () => {
    const taskId = offlineTask;
    const token = user.tokenValue;
    const info = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data;
    const updated = await t.call<GraphicCardsReply>('POST', '/graphic/card/update', {
      token,
      body: { taskId, index: 1, heading: '改过的标题', text: '第一行\n第二行', templateId: 'checklist' },
    });
    expect(updated.code, updated.msg).toBe(0);
    expect(updated.data.cards[1]).toMatchObject({ heading: '改过的标题', text: '第一行\n第二行', templateId: 'checklist', source: 'card' });
    expect(updated.data.cards[1]!.imageUrl).not.toBe(info.cards[1]!.imageUrl);

    const styled = await t.call<GraphicCardsReply>('POST', '/graphic/card/style', { token, body: { taskId, templateId: 'quote', themeId: 'mint' } });
    expect(styled.data.cards.every((c) => c.themeId === 'mint')).toBe(true);
    expect(styled.data.cards[0]!.templateId).toBe('cover');
    expect(styled.data.cards.slice(1).every((c) => c.templateId === 'quote')).toBe(true);

    const ids = styled.data.cards.map((c) => c.id);
    const reversed = [ids[0]!, ...ids.slice(1).reverse()];
    const reordered = await t.call<GraphicCardsReply>('POST', '/graphic/card/reorder', { token, body: { taskId, order: reversed } });
    expect(reordered.data.cards.map((c) => c.id)).toEqual(reversed);
    expect(reordered.data.cards.map((c) => c.index)).toEqual(reversed.map((_, i) => i));
    const badOrder = await t.call('POST', '/graphic/card/reorder', { token, body: { taskId, order: ids.slice(1) } });
    expect(badOrder.code).toBe(ErrorCode.VALIDATION);
    expect(badOrder.msg).toContain('order');

    let count = reordered.data.cards.length;
    while (count < graphicLimits.cardsMax) {
      const added = await t.call<GraphicCardsReply>('POST', '/graphic/card/add', { token, body: { taskId, heading: `新卡片${count}`, text: '补充一条 ✅', templateId: 'list' } });
      expect(added.code, added.msg).toBe(0);
      count = added.data.cards.length;
    }
    const nineteenth = await t.call('POST', '/graphic/card/add', { token, body: { taskId, heading: '第19张' } });
    expect(nineteenth.code).toBe(ErrorCode.VALIDATION);
    expect(nineteenth.msg).toBe('最多18张图片');
    const removed = await t.call<GraphicCardsReply>('POST', '/graphic/card/remove', { token, body: { taskId, index: 17 } });
    expect(removed.data.cards).toHaveLength(17);

    // Uploads: not an image, too large, then a real one (cropped to the card).
    const upload = async (bytes: Buffer, name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const res = await fetch(`${t.url}/api/graphic/card/image/upload?taskId=${taskId}&index=2`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: form });
      return (await res.json()) as { code: number; msg: string; data: GraphicCardsReply };
    };
    const text = await upload(Buffer.from('这不是图片'.repeat(100)), 'fake.png', 'image/png');
    expect(text.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
    expect(text.msg).toBe('请上传jpg、jpeg、png、gif格式的文件');
    const big = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const huge = await upload(Buffer.concat([big, Buffer.alloc(30 * 1024 * 1024)]), 'big.png', 'image/png');
    expect(huge.code).toBe(ErrorCode.FILE_TOO_LARGE);
    expect(huge.msg).toBe('请上传20MB以内的文件');
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    const good = await upload(photo, '风景.jpg', 'image/jpeg');
    expect(good.code, good.msg).toBe(0);
    expect(good.data.cards[2]).toMatchObject({ source: 'upload', width: 1080, height: 1440 });
    await expectRealCards(t, [good.data.cards[2]!]);

    // A picture from the image library (the upload above is in it); someone else's path is refused.
    const lib = await t.call<GraphicCardsReply>('POST', '/graphic/card/image/set', { token, body: { taskId, index: 3, imageUrl: good.data.cards[2]!.imageUrl } });
    expect(lib.code, lib.msg).toBe(0);
    expect(lib.data.cards[3]!.source).toBe('material');
    const foreign = await t.call('POST', '/graphic/card/image/set', { token, body: { taskId, index: 3, imageUrl: '/uploads/images/00000000-0000-0000-0000-000000000000.png' } });
    expect(foreign.code).toBe(ErrorCode.VALIDATION);

    const zip = await fetch(`${t.url}/api/graphic/task/zip?taskId=${taskId}`, { headers: { [TOKEN_NAME]: token } });
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([...Array.from({ length: 17 }, (_, i) => `${String(i + 1).padStart(2, '0')}.png`), '文案.txt'].sort());
    expect((await sharp(Buffer.from(files['01.png']!)).metadata()).width).toBe(1080);
    // Up to 18 cards rendered one after another: generous on a loaded 2-core machine.
  }, 180_000);

  it('draft save: the note rules with the spec messages (21-char title, 1001 body, 11 topics); a valid save updates the 图文 draft', async () => {
    const token = user.tokenValue;
    const taskId = offlineTask;
    const long = await t.call('POST', '/graphic/draft/save', { token, body: { taskId, title: '一'.repeat(21), body: '正文', tags: [] } });
    expect(long.code).toBe(ErrorCode.VALIDATION);
    expect(long.msg).toContain('标题最多20字');
    // 40 ASCII letters count as 20: allowed, as on the platform.
    expect((await t.call('POST', '/graphic/draft/save', { token, body: { taskId, title: 'a'.repeat(40), body: '正文', tags: ['a'] } })).code).toBe(0);
    const body = await t.call('POST', '/graphic/draft/save', { token, body: { taskId, title: '标题', body: '字'.repeat(1001), tags: [] } });
    expect(body.msg).toContain('正文最多1000字');
    const tags = await t.call('POST', '/graphic/draft/save', { token, body: { taskId, title: '标题', body: '正文', tags: Array.from({ length: 11 }, (_, i) => `话题${i}`) } });
    expect(tags.msg).toContain('最多10个话题');
    const saved = await t.call<{ draftId: number }>('POST', '/graphic/draft/save', {
      token,
      body: { taskId, title: '手冲咖啡入门', body: '第一段\n第二段', tags: ['#咖啡', '手冲'] },
    });
    expect(saved.code, saved.msg).toBe(0);
    const note = (await t.call<GraphicTaskInfo>('GET', '/graphic/task/info', { token, query: { taskId } })).data;
    expect(note).toMatchObject({ title: '手冲咖啡入门', body: '第一段\n第二段', tags: ['咖啡', '手冲'], draftId: saved.data.draftId });
    const draft = await t.call<{ title: string; html: string; createType: string }>('GET', '/writing/draft/detail', { token, query: { id: saved.data.draftId } });
    expect(draft.data).toMatchObject({ title: '手冲咖啡入门', createType: 'graphic' });
    expect(draft.data.html).toContain('<img src="/uploads/images/');
  });

  it("bad inputs: sensitive prompt 933, unknown theme, contentCards out of range, someone else's task", async () => {
    const token = user.tokenValue;
    const bad = await t.call('POST', '/mp/task/create', { token, body: { createType: 'graphic', content: '帮我写一篇 网络 赌博 推广图文' } });
    expect(bad.code).toBe(ErrorCode.SENSITIVE_CONTENT);
    const theme = await t.call('POST', '/mp/task/create', { token, body: { createType: 'graphic', content: '咖啡', themeId: 'neon' } });
    expect(theme.code).toBe(ErrorCode.VALIDATION);
    expect(theme.msg).toContain('themeId');
    const many = await t.call('POST', '/mp/task/create', { token, body: { createType: 'graphic', content: '咖啡', contentCards: 18 } });
    expect(many.msg).toContain('contentCards 最多17张');
    const kind = await t.call('POST', '/mp/task/create', { token, body: { createType: 'video', content: '咖啡' } });
    expect(kind.code).toBe(ErrorCode.VALIDATION);
    expect(kind.msg).toContain('createType');
    const other = await loginByPhone(t);
    const peek = await t.call('GET', '/graphic/task/info', { token: other.tokenValue, query: { taskId: offlineTask } });
    expect(peek.code).toBe(ErrorCode.NOT_FOUND);
  });
});

describe('AI pictures off (IMAGEGEN_PROVIDER=none, the default)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so in Chinese, refuses AI pictures with 1006 and never fakes one; the card renderer still works', async () => {
    const status = await t.call<ImagegenStatus>('GET', '/graphic/imagegen/status', { token });
    expect(status.data).toMatchObject({ enabled: false, provider: null });
    expect(status.data.reason).toContain('AI配图未开启');
    const create = await t.call('POST', '/mp/task/create', { token, body: { createType: 'graphic', content: '咖啡入门', pictureMode: 'ai' } });
    expect(create.code).toBe(ErrorCode.NOT_CONFIGURED);
    expect(create.msg).toContain('AI配图未开启');
    const ok = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token, body: { createType: 'graphic', content: '咖啡入门。先买磨豆机。再学注水。' } });
    expect(ok.code).toBe(0);
    await waitForTask(t, token, ok.data.taskId);
    const one = await t.call('POST', '/graphic/card/image/ai', { token, body: { taskId: ok.data.taskId, index: 1 } });
    expect(one.code).toBe(ErrorCode.NOT_CONFIGURED);
    expect(one.msg).toContain('AI配图未开启');
    const templates = await t.call<{ templates: Array<{ id: string }>; themes: unknown[] }>('GET', '/graphic/templates', { token });
    expect(templates.data.templates.map((x) => x.id)).toEqual(['cover', 'list', 'quote', 'checklist', 'comparison', 'steps', 'paragraph', 'highlight']);
    expect(templates.data.themes.length).toBe(8);
  });
});
