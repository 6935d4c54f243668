import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { zipSync } from 'fflate';
import {
  ErrorCode,
  cardAspects,
  graphicLimits,
  type CardAspect,
  type CardImageMaterialBody,
  type MaterialSearchReply,
  limits,
  type CardAddBody,
  type CardImageAiBody,
  type CardImageSetBody,
  type CardRemoveBody,
  type CardReorderBody,
  type CardStyleBody,
  type CardThemeId,
  type CardUpdateBody,
  type GraphicCard,
  type GraphicDraftSaveBody,
  type GraphicDraftSaveReply,
  type GraphicTaskCreateBody,
  type GraphicTaskInfo,
  type GraphicTemplatesReply,
  type ImagegenStatus,
} from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError, appError } from '../../http/errors.js';
import { CardInputError, type CardRenderer } from '../../integrations/cards/index.js';
import { MaterialDisabledError, MaterialError, MaterialNotFoundError, MaterialRateLimitedError, type MaterialSearch } from '../../integrations/materials/index.js';
import { ImageGenContentFilteredError, ImageGenDisabledError, ImageGenRateLimitedError, type ImageGenerator } from '../../integrations/imagegen/index.js';
import { complete, LlmUpstreamError, type LlmUsage } from '../../integrations/llm/types.js';
import type { Storage } from '../../integrations/storage/types.js';
import { cut } from '../../integrations/llm/chinese-text.js';
import type { Sink } from '../writing/pipeline.js';
import type { GraphicTaskPort, GraphicWriteContext, PointsPort } from '../writing/task.service.js';
import { readTaskInput } from '../writing/task-input.js';
import type { TaskRow, WritingRepo } from '../writing/writing.repo.js';
import type { DraftRepo } from '../drafts/drafts.repo.js';
import type { FileRepo } from '../files/files.repo.js';
import type { UploadPart } from '../files/files.service.js';
import { generatedBy } from '../llm/llm-registry.js';
import { normalisePlan, offlinePlan, parseModelPlan, planPrompt, type NotePlan } from './graphic.plan.js';
import type { GraphicCardRow, GraphicPostRow, GraphicRepo } from './graphic.repo.js';
import { checkPicture, readAll, storePng, toCardPng } from './pictures.js';
import { escapeHtml } from '../../html/page.js';

export const AI_IMAGE_FEATURE = 'ai_image';
export const MATERIALS_OFF_MESSAGE = '素材搜索未开启：管理员尚未配置图库服务，可使用卡片模板、图片库或上传图片';

/** A material search failure as the user sees it; a switched-off search is said so, never shown as empty results. */
function materialFailure(err: unknown): never {
  if (err instanceof MaterialDisabledError) throw appError(ErrorCode.NOT_CONFIGURED, MATERIALS_OFF_MESSAGE);
  if (err instanceof MaterialNotFoundError) throw appError(ErrorCode.NOT_FOUND, '素材图片不存在或已下架，请重新搜索');
  if (err instanceof MaterialRateLimitedError) throw appError(ErrorCode.RATE_LIMITED, '素材搜索太频繁，请稍后再试');
  if (err instanceof MaterialError) throw appError(ErrorCode.OPERATION_FAILED, '素材服务暂时不可用，请稍后再试');
  throw err;
}

export const IMAGEGEN_OFF_MESSAGE = 'AI配图未开启：管理员尚未配置图片生成服务，可使用卡片模板、图片库或上传图片';
/** Configured, but switched off in the console (模型与来源). */
export const IMAGEGEN_PAUSED_MESSAGE = 'AI配图已暂停：管理员暂时关闭了图片生成服务，可使用卡片模板、图片库或上传图片';

export interface NoteServiceDeps {
  repo: GraphicRepo;
  tasks: Pick<WritingRepo, 'task'>;
  drafts: Pick<DraftRepo, 'insertDraft' | 'updateDraft'>;
  /** AI pictures join the user's image library. */
  files: Pick<FileRepo, 'insertFile'>;
  renderer: CardRenderer;
  storage: Storage;
  /** The vendor behind the console's switch: `available()` is checked before offering or charging a picture. */
  imagegen: ImageGenerator & { available(): Promise<boolean> };
  /** Stock photos (material search); `none` by default. */
  materials: MaterialSearch;
  points: PointsPort;
  /** The sensitive-word check of writing (933): AI picture prompts and edited words pass it too. */
  sensitive: (text: string) => Promise<boolean>;
  /** Image-library ownership: the storage key of a user's own image by its URL, or null. */
  ownImageKey: (userId: number, url: string) => Promise<string | null>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Graphic notes (图文): writes a note's words and card plan inside a writing task (GraphicTaskPort), renders the
 * cards, and serves the editor's changes afterwards (words, order, templates, pictures, draft, zip).
 */
export class GraphicNoteService implements GraphicTaskPort {
  constructor(private readonly d: NoteServiceDeps) {}

  // ---- the task (called by writing's task runner) --------------------------------------------------------------

  async check(_userId: number, body: GraphicTaskCreateBody): Promise<void> {
    if (body.pictureMode === 'ai' && !(await this.d.imagegen.available()))
      throw appError(ErrorCode.NOT_CONFIGURED, this.d.imagegen.enabled ? IMAGEGEN_PAUSED_MESSAGE : IMAGEGEN_OFF_MESSAGE);
  }

  async write(task: TaskRow, sink: Sink, ctx: GraphicWriteContext): Promise<LlmUsage | null> {
    const input = readTaskInput('graphic', task.input);
    const content = input.content;
    const contentCards = input.contentCards;
    const themeId: CardThemeId = input.themeId ?? 'paper';
    // A restart writes the note again: AI pictures charged by the previous run are given back first.
    const previous = await this.d.repo.get(task.id);
    if (previous) await this.refundPictures(task.userId, previous.cards);

    sink.progress('plan', ctx.llm.isAi ? '正在构思标题、正文与卡片' : '离线写作助手（非AI）正在整理你的输入', 5);
    const material: string[] = [];
    if (ctx.onlineSearch && ctx.search.enabled) {
      sink.progress('search', '正在联网搜索资料', 10);
      const found = await ctx.search.search(content.slice(0, 60), { count: 5, signal: sink.signal }).catch(() => []);
      if (found.length) {
        sink.sources(found.map((f, i) => ({ n: i + 1, title: f.title, url: f.url, snippet: f.snippet, siteName: f.siteName })));
        material.push(`联网搜索到的资料：\n${found.map((f, i) => `[${i + 1}] ${f.title}：${f.snippet.slice(0, 200)}`).join('\n')}`);
      }
    }
    if (ctx.retrieve) {
      const passages = await ctx.retrieve(content.slice(0, 100), 5).catch(() => []);
      if (passages.length) material.push(`知识库资料：\n${passages.map((p) => `《${p.title}》${p.snippet.slice(0, 300)}`).join('\n')}`);
    }
    if (ctx.quotes.length) material.push(`用户引用的资料：\n${ctx.quotes.map((q) => `《${q.name}》\n${q.text.slice(0, 3000)}`).join('\n\n')}`);
    if (ctx.persona)
      material.push(
        `人设：${ctx.persona.name}；语气：${ctx.persona.tone}；读者：${ctx.persona.audience}${ctx.persona.tabooWords.length ? `；禁用词：${ctx.persona.tabooWords.join('、')}` : ''}`,
      );

    let usage: LlmUsage | null = null;
    let plan: NotePlan;
    if (!ctx.llm.isAi) {
      plan = normalisePlan(offlinePlan({ content, quotes: ctx.quotes, contentCards }), content, contentCards);
    } else {
      const reply = await complete(ctx.llm, {
        signal: sink.signal,
        messages: [
          { role: 'system', content: '你是小红书爆款图文笔记的写作助手。用简体中文，不编造数据。' },
          { role: 'user', content: planPrompt({ content, contentCards, material: material.join('\n\n') }) },
        ],
      });
      usage = reply.usage;
      const parsed = parseModelPlan(reply.text);
      if (!parsed) throw new LlmUpstreamError('the graphic plan is not JSON');
      plan = normalisePlan(parsed, content, contentCards);
    }
    sink.title(plan.title);
    // The note's words go into the stream (and the task text) so the finished task passes the sensitive-word check.
    sink.delta(`# ${plan.title}\n\n${plan.body}\n\n${plan.tags.map((t) => `#${t}`).join(' ')}\n\n`);
    for (const [i, c] of plan.cards.entries()) sink.delta(`【卡片${i + 1}】${c.heading}\n${c.text}\n\n`);

    const cards: GraphicCardRow[] = plan.cards.map((c) => ({
      id: randomUUID().slice(0, 12),
      heading: c.heading,
      text: c.text,
      templateId: c.templateId,
      themeId,
      source: 'card',
      imagePrompt: c.imagePrompt,
      storageKey: '',
      width: graphicLimits.width,
      height: graphicLimits.height,
    }));
    const save = () => this.d.repo.put({ taskId: task.id, userId: task.userId, title: plan.title, body: plan.body, tags: plan.tags, cards, now: this.d.clock.now() });
    await save();
    const wantsAi = input.pictureMode === 'ai' && (await this.d.imagegen.available());
    for (const [i, card] of cards.entries()) {
      if (sink.signal.aborted) throw sink.signal.reason instanceof Error ? sink.signal.reason : new Error('stopped');
      sink.progress('render', `正在生成第${i + 1}/${cards.length}张图片`, 30 + Math.round((65 * i) / cards.length));
      if (wantsAi && i > 0 && plan.cards[i]!.picture === 'ai') {
        const done = await this.aiPicture(task.userId, `aiimg:${task.id}:${card.id}`, card.imagePrompt || `${card.heading} ${card.text}`.slice(0, 200), card, sink.signal);
        if (done.ok) {
          await save();
          continue;
        }
        sink.progress('render', `第${i + 1}张AI配图失败（${done.msg}），已改用卡片并退还该图积分`, 30 + Math.round((65 * i) / cards.length));
      }
      await this.renderInto(card, i);
    }
    await save();
    sink.progress('finish', `已生成${cards.length}张图片${ctx.llm.isAi ? '' : '（离线写作助手，非AI模型）'}`, 100);
    return usage;
  }

  async finish(tx: DbOrTx, task: TaskRow, now: Date): Promise<number> {
    const post = await this.d.repo.get(task.id, tx);
    if (!post) throw new Error(`graphic task ${task.id} has no note`);
    const draft = await this.d.drafts.insertDraft(tx, {
      userId: task.userId,
      title: post.title,
      ...this.draftBody(post),
      taskId: task.id,
      createType: 'graphic',
      createdAt: now,
      updatedAt: now,
    });
    await this.d.repo.update(task.id, task.userId, post.version, { draftId: draft.id }, now, tx);
    return draft.id;
  }

  async failed(tx: DbOrTx, task: TaskRow): Promise<void> {
    const post = await this.d.repo.get(task.id, tx);
    if (post) await this.refundPictures(task.userId, post.cards, tx);
  }

  private async refundPictures(userId: number, cards: GraphicCardRow[], tx?: DbOrTx) {
    for (const c of cards) {
      const key = (c as GraphicCardRow & { chargeKey?: string }).chargeKey;
      if (key) await this.d.points.refund(userId, key, { reason: `refund:${AI_IMAGE_FEATURE}` }, tx);
    }
  }

  // ---- pictures ---------------------------------------------------------------------------------------------

  /** Renders the card's words with its template and theme into a new stored PNG. */
  private async renderInto(card: GraphicCardRow, index: number): Promise<void> {
    let png: Buffer;
    try {
      png = await this.d.renderer.render({
        templateId: card.templateId,
        title: card.heading,
        subtitle: card.templateId === 'cover' ? card.text : undefined,
        text: card.text,
        theme: card.themeId,
        page: index > 0 ? index : undefined,
      });
    } catch (err) {
      if (err instanceof CardInputError) throw appError(ErrorCode.VALIDATION, err.message);
      throw err;
    }
    card.storageKey = await storePng(this.d.storage, png);
    card.source = 'card';
    card.width = graphicLimits.width;
    card.height = graphicLimits.height;
    delete (card as GraphicCardRow & { chargeKey?: string }).chargeKey;
  }

  /**
   * One AI picture for a card: charged `ai_image` under `key`, generated, checked (magic bytes, size, decodable),
   * cropped to the card and stored. Any failure refunds the charge (same key, so at most once) and reports why.
   */
  private async aiPicture(
    userId: number,
    key: string,
    prompt: string,
    card: GraphicCardRow,
    signal?: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; code: number; msg: string }> {
    if (await this.d.sensitive(prompt)) return { ok: false, code: ErrorCode.SENSITIVE_CONTENT, msg: '描述词存在敏感内容' };
    const cost = await this.d.points.costOf(AI_IMAGE_FEATURE);
    if (cost > 0) await this.d.points.charge(userId, cost, { reason: AI_IMAGE_FEATURE, idempotencyKey: key });
    try {
      const out = await this.d.imagegen.generate({ prompt, signal });
      await checkPicture(out.bytes);
      const png = await toCardPng(out.bytes);
      card.storageKey = await storePng(this.d.storage, png);
      card.source = 'ai';
      card.imagePrompt = prompt;
      card.width = graphicLimits.width;
      card.height = graphicLimits.height;
      if (cost > 0) (card as GraphicCardRow & { chargeKey?: string }).chargeKey = key;
      return { ok: true };
    } catch (err) {
      if (cost > 0) await this.d.points.refund(userId, key, { reason: `refund:${AI_IMAGE_FEATURE}` });
      if (signal?.aborted) throw err;
      const f =
        err instanceof ImageGenContentFilteredError
          ? { code: ErrorCode.AI_CONTENT_FILTERED, msg: '图片描述未通过安全审核' }
          : err instanceof ImageGenRateLimitedError
            ? { code: ErrorCode.AI_RATE_LIMITED, msg: 'AI配图服务繁忙' }
            : err instanceof ImageGenDisabledError
              ? { code: ErrorCode.NOT_CONFIGURED, msg: IMAGEGEN_OFF_MESSAGE }
              : err instanceof AppError
                ? { code: err.code, msg: `AI返回的图片无效：${err.message}` }
                : { code: ErrorCode.AI_UPSTREAM_FAILED, msg: 'AI配图服务暂时不可用' };
      this.d.log.warn({ err: err instanceof Error ? err.message : err }, 'AI picture failed');
      return { ok: false, ...f };
    }
  }

  // ---- reading ----------------------------------------------------------------------------------------------

  private async own(userId: number, taskId: string): Promise<{ task: TaskRow; post: GraphicPostRow | undefined }> {
    const task = await this.d.tasks.task(taskId);
    if (!task || task.userId !== userId || task.kind !== 'graphic') throw appError(ErrorCode.NOT_FOUND, '图文任务不存在');
    return { task, post: await this.d.repo.get(taskId) };
  }

  /** The note for editing; refused while the writer still runs (its cards are not final). */
  private async editable(userId: number, taskId: string): Promise<GraphicPostRow> {
    const { task, post } = await this.own(userId, taskId);
    if (task.status !== 'succeeded' || !post) throw appError(ErrorCode.CONFLICT, task.status === 'failed' ? '图文生成失败，无法编辑' : '图文还在生成中，请稍候');
    return post;
  }

  private card(c: GraphicCardRow, index: number): GraphicCard {
    return {
      index,
      id: c.id,
      heading: c.heading,
      text: c.text,
      templateId: c.templateId as GraphicCard['templateId'],
      themeId: c.themeId as CardThemeId,
      source: c.source as GraphicCard['source'],
      imagePrompt: c.imagePrompt,
      imageUrl: c.storageKey ? this.d.storage.publicUrl(c.storageKey) : '',
      width: c.width,
      height: c.height,
    };
  }

  async info(userId: number, taskId: string): Promise<GraphicTaskInfo> {
    const { task, post } = await this.own(userId, taskId);
    return {
      taskId: task.id,
      status: task.status,
      title: post?.title ?? task.title,
      body: post?.body ?? '',
      tags: post?.tags ?? [],
      cards: (post?.cards ?? []).map((c, i) => this.card(c, i)),
      draftId: post?.draftId ?? task.draftId,
      pointsCharged: task.pointsCharged,
      generatedBy: generatedBy(task.modelId),
      errorCode: task.errorCode,
      errorMsg: task.errorMsg,
      createdAt: task.createdAt.toISOString(),
      updatedAt: (post?.updatedAt ?? task.createdAt).toISOString(),
    };
  }

  templates(): GraphicTemplatesReply {
    return {
      templates: this.d.renderer.templates.map((t) => ({
        id: t.id as GraphicTemplatesReply['templates'][number]['id'],
        name: t.name,
        description: t.description,
        width: t.width,
        height: t.height,
      })),
      themes: this.d.renderer.themes.map((t) => ({ id: t.id as CardThemeId, name: t.name, background: t.background, text: t.text, accent: t.accent })),
    };
  }

  async imagegenStatus(): Promise<ImagegenStatus> {
    const g = this.d.imagegen;
    const on = await g.available();
    return {
      enabled: on,
      provider: on ? g.id : null,
      sandbox: false,
      reason: on ? null : g.enabled ? IMAGEGEN_PAUSED_MESSAGE : IMAGEGEN_OFF_MESSAGE,
      pointsPerImage: await this.d.points.costOf(AI_IMAGE_FEATURE).catch(() => 0),
    };
  }

  // ---- editing ----------------------------------------------------------------------------------------------

  /** Applies `change` to a copy of the cards and saves it against the version read; returns the new list. */
  private async edit(userId: number, taskId: string, change: (cards: GraphicCardRow[], post: GraphicPostRow) => Promise<void>): Promise<{ cards: GraphicCard[] }> {
    const post = await this.editable(userId, taskId);
    const cards = post.cards.map((c) => ({ ...c }));
    await change(cards, post);
    const saved = await this.d.repo.update(taskId, userId, post.version, { cards }, this.d.clock.now());
    if (!saved) throw appError(ErrorCode.CONFLICT, '图文已在别处修改，请刷新后重试');
    return { cards: saved.cards.map((c, i) => this.card(c, i)) };
  }

  private at(cards: GraphicCardRow[], index: number): GraphicCardRow {
    const c = cards[index];
    if (!c) throw appError(ErrorCode.VALIDATION, `index：没有第${index + 1}张图片`);
    return c;
  }

  private async checkWords(...texts: Array<string | undefined>) {
    const t = texts.filter(Boolean).join('\n');
    if (t && (await this.d.sensitive(t))) throw appError(ErrorCode.SENSITIVE_CONTENT);
  }

  async updateCard(userId: number, b: CardUpdateBody) {
    await this.checkWords(b.heading, b.text);
    return this.edit(userId, b.taskId, async (cards) => {
      const c = this.at(cards, b.index);
      if (b.heading !== undefined) c.heading = b.heading;
      if (b.text !== undefined) c.text = b.text;
      if (b.templateId) c.templateId = b.templateId;
      if (b.themeId) c.themeId = b.themeId;
      if (c.source === 'card' || b.source === 'card') await this.renderInto(c, b.index);
    });
  }

  async style(userId: number, b: CardStyleBody) {
    return this.edit(userId, b.taskId, async (cards) => {
      const targets = b.index === undefined ? cards.map((_, i) => i) : [b.index];
      for (const i of targets) {
        const c = this.at(cards, i);
        // A template is per card kind: "all" changes the theme everywhere but the template only of content cards.
        if (b.templateId && (b.index !== undefined || c.templateId !== 'cover')) c.templateId = b.templateId;
        if (b.themeId) c.themeId = b.themeId;
        if (c.source === 'card') await this.renderInto(c, i);
      }
    });
  }

  async reorder(userId: number, b: CardReorderBody) {
    return this.edit(userId, b.taskId, async (cards) => {
      const byId = new Map(cards.map((c) => [c.id, c]));
      if (b.order.length !== cards.length || new Set(b.order).size !== b.order.length || b.order.some((id) => !byId.has(id))) {
        throw appError(ErrorCode.VALIDATION, 'order：必须按新顺序列出每张卡片的 id，各一次');
      }
      const before = new Map(cards.map((c, i) => [c.id, i]));
      const next = b.order.map((id) => byId.get(id)!);
      cards.splice(0, cards.length, ...next);
      // Page numbers are drawn on rendered cards: redraw those whose position changed.
      for (const [i, c] of cards.entries()) if (c.source === 'card' && before.get(c.id) !== i) await this.renderInto(c, i);
    });
  }

  async add(userId: number, b: CardAddBody) {
    await this.checkWords(b.heading, b.text);
    return this.edit(userId, b.taskId, async (cards) => {
      if (cards.length >= graphicLimits.cardsMax) throw appError(ErrorCode.VALIDATION, `最多${graphicLimits.cardsMax}张图片`);
      const at = b.after === undefined ? cards.length : Math.min(b.after + 1, cards.length);
      const themeId = b.themeId ?? (cards[0]?.themeId as CardThemeId | undefined) ?? 'paper';
      const card: GraphicCardRow = {
        id: randomUUID().slice(0, 12),
        heading: b.heading,
        text: b.text,
        templateId: b.templateId,
        themeId,
        source: 'card',
        imagePrompt: `${b.heading} ${b.text}`.trim().slice(0, 200),
        storageKey: '',
        width: graphicLimits.width,
        height: graphicLimits.height,
      };
      cards.splice(at, 0, card);
      for (const [i, c] of cards.entries()) if (c.source === 'card' && i >= at) await this.renderInto(c, i);
    });
  }

  async remove(userId: number, b: CardRemoveBody) {
    return this.edit(userId, b.taskId, async (cards) => {
      this.at(cards, b.index);
      if (cards.length <= graphicLimits.cardsMin) throw appError(ErrorCode.VALIDATION, `至少保留${graphicLimits.cardsMin}张图片`);
      cards.splice(b.index, 1);
      for (const [i, c] of cards.entries()) if (c.source === 'card' && i >= b.index) await this.renderInto(c, i);
    });
  }

  /** The card's picture becomes the user's upload (checked: size while streaming, magic bytes, decodable), kept in the image library. */
  async upload(userId: number, taskId: string, index: number, part: UploadPart, aspect: CardAspect = '3:4') {
    await this.editable(userId, taskId);
    const bytes = await readAll(part.file, limits.uploadMaxBytes);
    if (part.file.truncated) throw appError(ErrorCode.FILE_TOO_LARGE);
    if (!bytes.length) throw appError(ErrorCode.FILE_READ_FAILED, '文件为空');
    await checkPicture(bytes);
    const png = await toCardPng(bytes, aspect);
    return this.edit(userId, taskId, async (cards) => {
      const c = this.at(cards, index);
      c.storageKey = await storePng(this.d.storage, png);
      c.source = 'upload';
      c.width = cardAspects[aspect].width;
      c.height = cardAspects[aspect].height;
      const words = [
        ...new Set(
          cut(c.heading || c.text)
            .map((w) => w.trim())
            .filter((w) => w.length >= 2),
        ),
      ].slice(0, 20);
      await this.d.files.insertFile({
        userId,
        kind: 'image',
        name: `图文-${(c.heading || '卡片').slice(0, 40)}.png`,
        ext: 'png',
        mime: 'image/png',
        size: png.length,
        storageKey: c.storageKey,
        keywords: ['图文', ...words],
      });
    });
  }

  /** A picture from the user's own image library (material search), by the URL the search returned. */
  async setImage(userId: number, b: CardImageSetBody) {
    const key = await this.d.ownImageKey(userId, b.imageUrl);
    if (!key) throw appError(ErrorCode.VALIDATION, 'imageUrl：只能选择图片库中你自己的图片');
    const bytes = await readAll(this.d.storage.read(key), limits.uploadMaxBytes);
    await checkPicture(bytes);
    const png = await toCardPng(bytes);
    return this.edit(userId, b.taskId, async (cards) => {
      const c = this.at(cards, b.index);
      c.storageKey = await storePng(this.d.storage, png);
      c.source = 'material';
      c.width = graphicLimits.width;
      c.height = graphicLimits.height;
    });
  }

  materialStatus() {
    const m = this.d.materials;
    return { enabled: m.enabled, provider: m.id, reason: m.enabled ? null : MATERIALS_OFF_MESSAGE };
  }

  async materialSearch(q: string, page: number): Promise<MaterialSearchReply> {
    if (await this.d.sensitive(q)) throw appError(ErrorCode.SENSITIVE_CONTENT);
    try {
      const found = await this.d.materials.search(q, page);
      // The big picture's URL stays on the server: the card is made from the id, re-listed by the provider.
      return { provider: this.d.materials.id, page: found.page, total: found.total, items: found.items.map(({ imageUrl: _, ...p }) => p) };
    } catch (err) {
      materialFailure(err);
    }
  }

  /** A stock photo becomes the card's picture: fetched through the safe client, checked like an upload, cropped to 3:4. */
  async setMaterial(userId: number, b: CardImageMaterialBody) {
    await this.editable(userId, b.taskId);
    let bytes: Buffer;
    try {
      bytes = (await this.d.materials.download(b.photoId)).bytes;
    } catch (err) {
      materialFailure(err);
    }
    await checkPicture(bytes);
    const png = await toCardPng(bytes);
    return this.edit(userId, b.taskId, async (cards) => {
      const c = this.at(cards, b.index);
      c.storageKey = await storePng(this.d.storage, png);
      c.source = 'material';
      c.width = graphicLimits.width;
      c.height = graphicLimits.height;
    });
  }

  /** An AI picture for one card, charged per picture and refunded when it fails (the card keeps its picture). */
  async aiImage(userId: number, b: CardImageAiBody) {
    if (!(await this.d.imagegen.available())) throw appError(ErrorCode.NOT_CONFIGURED, this.d.imagegen.enabled ? IMAGEGEN_PAUSED_MESSAGE : IMAGEGEN_OFF_MESSAGE);
    const post = await this.editable(userId, b.taskId);
    const current = this.at(post.cards, b.index);
    const prompt = b.prompt ?? (current.imagePrompt || `${current.heading} ${current.text}`.trim());
    if (await this.d.sensitive(prompt)) throw appError(ErrorCode.SENSITIVE_CONTENT);
    const card = { ...current };
    const result = await this.aiPicture(userId, `aiimg:${b.taskId}:${card.id}:${randomUUID()}`, prompt.slice(0, graphicLimits.aiPromptMax), card);
    if (!result.ok) throw appError(result.code, `${result.msg}，已退还积分`);
    // The charge stays with the picture: it succeeded, so it is not refunded if the note changes later.
    delete (card as GraphicCardRow & { chargeKey?: string }).chargeKey;
    return this.edit(userId, b.taskId, async (cards) => {
      const i = cards.findIndex((c) => c.id === card.id);
      if (i < 0) throw appError(ErrorCode.CONFLICT, '卡片已被删除');
      cards[i] = card;
    });
  }

  // ---- the note's words, draft, zip ---------------------------------------------------------------------------

  private draftBody(post: Pick<GraphicPostRow, 'title' | 'body' | 'tags' | 'cards'>): { html: string; markdown: string } {
    const urls = post.cards.filter((c) => c.storageKey).map((c) => this.d.storage.publicUrl(c.storageKey));
    const paras = post.body.split(/\n+/).filter(Boolean);
    const tags = post.tags.map((t) => `#${t}`).join(' ');
    const html = [...paras.map((p) => `<p>${escapeHtml(p)}</p>`), tags ? `<p>${escapeHtml(tags)}</p>` : '', ...urls.map((u) => `<p><img src="${escapeHtml(u)}" alt=""></p>`)].join(
      '',
    );
    const markdown = [`# ${post.title}`, ...paras, tags, ...urls.map((u) => `![](${u})`)].filter(Boolean).join('\n\n');
    return { html, markdown };
  }

  async saveDraft(userId: number, b: GraphicDraftSaveBody): Promise<GraphicDraftSaveReply> {
    await this.checkWords(b.title, b.body, b.tags.join(' '));
    const post = await this.editable(userId, b.taskId);
    const tags = [...new Set(b.tags.map((t) => t.replace(/^#+/, '').trim()).filter(Boolean))];
    const now = this.d.clock.now();
    const saved = await this.d.repo.update(b.taskId, userId, post.version, { title: b.title, body: b.body, tags }, now);
    if (!saved) throw appError(ErrorCode.CONFLICT, '图文已在别处修改，请刷新后重试');
    const body = this.draftBody(saved);
    if (saved.draftId) {
      const d = await this.d.drafts.updateDraft(userId, saved.draftId, { title: b.title, ...body, updatedAt: now });
      if (d) return { draftId: d.id, updatedAt: now.toISOString() };
    }
    // The draft was deleted from the list: saving makes a new one.
    const draft = await this.d.drafts.insertDraft(this.d.repo.db, { userId, title: b.title, ...body, taskId: b.taskId, createType: 'graphic', createdAt: now, updatedAt: now });
    await this.d.repo.update(b.taskId, userId, saved.version, { draftId: draft.id }, now);
    return { draftId: draft.id, updatedAt: now.toISOString() };
  }

  /** Every picture in order (01.png...) and 文案.txt (title, body, topics), as one zip. */
  async zip(userId: number, taskId: string): Promise<{ name: string; bytes: Uint8Array }> {
    const post = await this.editable(userId, taskId);
    const files: Record<string, Uint8Array> = {};
    for (const [i, c] of post.cards.entries()) {
      if (!c.storageKey) continue;
      files[`${String(i + 1).padStart(2, '0')}.png`] = await readAll(this.d.storage.read(c.storageKey), limits.uploadMaxBytes * 2);
    }
    const text = `${post.title}\n\n${post.body}\n\n${post.tags.map((t) => `#${t}`).join(' ')}\n`;
    files['文案.txt'] = new TextEncoder().encode(text);
    // PNGs are compressed already: stored, not deflated again.
    return { name: `${post.title || '图文'}.zip`, bytes: zipSync(files, { level: 0 }) };
  }

  /** Publishing by graphic task: the note as an image note (cards in order). */
  async publishContent(userId: number, taskId: string): Promise<{ title: string; body: string; images: string[]; topics: string[] }> {
    const post = await this.editable(userId, taskId);
    return { title: post.title, body: post.body, images: post.cards.filter((c) => c.storageKey).map((c) => this.d.storage.publicUrl(c.storageKey)), topics: post.tags };
  }
}
