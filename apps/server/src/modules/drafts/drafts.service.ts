import type { Paragraph } from 'docx';
import { ErrorCode, markdownToHtml, type DraftDetail, type Persona, type PersonaSaveBody } from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import { generatedBy } from '../llm/llm-registry.js';
import { htmlToMarkdown, parseBlocks, stripMarkdown } from './markdown.js';
import type { DraftRow, DraftRepo, PersonaRow } from './drafts.repo.js';

const toDraftItem = (d: DraftRow) => ({
  id: d.id,
  title: d.title,
  summary: stripMarkdown(d.markdown || htmlToMarkdown(d.html))
    .replace(/^【[^】]*】\s*/, '')
    .slice(0, 120),
  taskId: d.taskId,
  createType: d.createType,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

export const toPersona = (p: PersonaRow): Persona => ({
  id: p.id,
  name: p.name,
  platform: p.platform,
  industry: p.industry,
  audience: p.audience,
  tone: p.tone,
  tabooWords: p.tabooWords,
  sampleTexts: p.sampleTexts,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** Drafts (autosave, list, detail, export) and personas. */
export class DraftService {
  constructor(
    private readonly repo: DraftRepo,
    private readonly clock: Clock,
  ) {}

  // ---- drafts ----
  async drafts(userId: number, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.drafts(userId, pageNum, pageSize);
    return { records: rows.map(toDraftItem), total, pageNum, pageSize };
  }

  async draft(userId: number, id: number): Promise<DraftDetail> {
    const d = await this.repo.draft(userId, id);
    if (!d) throw appError(ErrorCode.NOT_FOUND, '草稿不存在');
    const modelId = d.taskId ? await this.repo.writtenBy(d.taskId) : undefined;
    return { ...toDraftItem(d), html: d.html, markdown: d.markdown, generatedBy: modelId ? generatedBy(modelId) : null };
  }

  /** Autosave: creates without id, updates with it. Either body form is accepted; the other is derived. */
  async saveDraft(userId: number, input: { id?: number | null; title: string; html?: string; markdown?: string }): Promise<DraftDetail> {
    const now = this.clock.now();
    const body: { html?: string; markdown?: string } = {};
    if (input.html !== undefined) {
      body.html = input.html;
      body.markdown = input.markdown ?? htmlToMarkdown(input.html);
    } else if (input.markdown !== undefined) {
      body.markdown = input.markdown;
      body.html = markdownToHtml(input.markdown);
    }
    if (input.id) {
      const row = await this.repo.updateDraft(userId, input.id, { title: input.title, ...body, updatedAt: now });
      if (!row) throw appError(ErrorCode.NOT_FOUND, '草稿不存在');
      return this.draft(userId, row.id);
    }
    const row = await this.repo.insertDraft(this.repo.db, { userId, title: input.title, html: body.html ?? '', markdown: body.markdown ?? '', createdAt: now, updatedAt: now });
    return this.draft(userId, row.id);
  }

  async deleteDraft(userId: number, id: number) {
    const row = await this.repo.updateDraft(userId, id, { deletedAt: this.clock.now() });
    if (!row) throw appError(ErrorCode.NOT_FOUND, '草稿不存在');
  }

  async exportDraft(userId: number, id: number, format: 'docx' | 'md'): Promise<{ filename: string; contentType: string; body: Buffer }> {
    const d = await this.repo.draft(userId, id);
    if (!d) throw appError(ErrorCode.NOT_FOUND, '草稿不存在');
    const markdown = d.markdown || htmlToMarkdown(d.html);
    const base =
      (d.title || '未命名草稿')
        .replace(/[\\/:*?"<>|\r\n]+/g, ' ')
        .trim()
        .slice(0, 80) || 'draft';
    if (format === 'md') {
      const md = d.html ? htmlToMarkdown(d.html) : markdown;
      return { filename: `${base}.md`, contentType: 'text/markdown; charset=utf-8', body: Buffer.from(md, 'utf8') };
    }
    return { filename: `${base}.docx`, contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: await toDocx(d.title, markdown) };
  }

  // ---- personas ----
  async personas(userId: number): Promise<Persona[]> {
    return (await this.repo.personas(userId)).map(toPersona);
  }

  async persona(userId: number, id: number): Promise<Persona> {
    const p = await this.repo.persona(userId, id);
    if (!p) throw appError(ErrorCode.NOT_FOUND, '人设不存在');
    return toPersona(p);
  }

  async savePersona(userId: number, input: PersonaSaveBody): Promise<Persona> {
    const values = {
      name: input.name,
      platform: input.platform,
      industry: input.industry,
      audience: input.audience,
      tone: input.tone,
      tabooWords: [...new Set(input.tabooWords)],
      sampleTexts: input.sampleTexts,
      updatedAt: this.clock.now(),
    };
    if (input.id) {
      const row = await this.repo.updatePersona(userId, input.id, values);
      if (!row) throw appError(ErrorCode.NOT_FOUND, '人设不存在');
      return toPersona(row);
    }
    if ((await this.repo.countPersonas(userId)) >= 50) throw appError(ErrorCode.VALIDATION, '人设最多创建50个');
    return toPersona(await this.repo.insertPersona({ userId, ...values }));
  }

  async deletePersona(userId: number, id: number) {
    if (!(await this.repo.deletePersona(userId, id))) throw appError(ErrorCode.NOT_FOUND, '人设不存在');
  }
}

type DocxLib = typeof import('docx');

const runs = ({ TextRun }: DocxLib, text: string) =>
  text
    .split(/(\*\*[^*]+\*\*)/)
    .filter(Boolean)
    .map((part) => (part.startsWith('**') && part.endsWith('**') ? new TextRun({ text: part.slice(2, -2), bold: true }) : new TextRun(part)));

export async function toDocx(title: string, markdown: string): Promise<Buffer> {
  // Loaded on the first export, not at start-up: few creators export, and it weighs ~9 MB resident.
  const docx = await import('docx');
  const { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } = docx;
  const children: Paragraph[] = [];
  const blocks = parseBlocks(markdown);
  if (!blocks.some((b) => b.type === 'heading' && b.level === 1) && title)
    children.push(new Paragraph({ text: title, heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER }));
  const level = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
  for (const b of blocks) {
    if (b.type === 'heading') children.push(new Paragraph({ heading: level[b.level], children: runs(docx, b.text) }));
    else if (b.type === 'list') b.items.forEach((item, i) => children.push(new Paragraph({ children: [new TextRun(b.ordered ? `${i + 1}. ` : '• '), ...runs(docx, item)] })));
    else if (b.type === 'quote') children.push(new Paragraph({ children: [new TextRun({ text: b.text, italics: true })], indent: { left: 480 } }));
    else for (const line of b.text.split('\n')) children.push(new Paragraph({ children: runs(docx, line) }));
  }
  const doc = new Document({ creator: 'Inkstone 砚', title: title || '草稿', sections: [{ children }] });
  return Packer.toBuffer(doc);
}
