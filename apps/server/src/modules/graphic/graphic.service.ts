import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode, type CoverBody, type CoverReply } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { cut } from '../../integrations/llm/chinese-text.js';
import { CardInputError, type CardRenderer } from '../../integrations/cards/index.js';
import type { Storage, StorageWriter } from '../../integrations/storage/types.js';
import type { FileRepo } from '../files/files.repo.js';

/** Graphic posts: cards rendered from text, stored like uploaded images so every later step treats them alike. */
export class GraphicService {
  constructor(
    private readonly renderer: CardRenderer,
    private readonly storage: Storage,
    private readonly files: Pick<FileRepo, 'insertFile'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A cover card from the title, kept in the user's image library (the image picker finds it by its words). */
  async cover(userId: number, input: CoverBody): Promise<CoverReply> {
    const template = this.renderer.templates.find((t) => t.id === 'cover')!;
    let png: Buffer;
    try {
      png = await this.renderer.render({ templateId: template.id, title: input.title, theme: input.themeId });
    } catch (err) {
      if (err instanceof CardInputError) throw appError(ErrorCode.VALIDATION, err.message);
      this.log.error({ err }, 'cover card rendering failed');
      throw appError(ErrorCode.OPERATION_FAILED, '封面生成失败，请稍后再试');
    }
    const key = `public/images/${randomUUID()}.png`;
    let writer: StorageWriter | null = null;
    try {
      writer = await this.storage.writer(key);
      await writer.write(png);
      await writer.commit();
    } catch (err) {
      await writer?.abort();
      this.log.error({ err }, 'cover card could not be stored');
      throw appError(ErrorCode.UPLOAD_FAILED, '封面保存失败，请稍后再试');
    }
    const words = [
      ...new Set(
        cut(input.title)
          .map((w) => w.trim())
          .filter((w) => w.length >= 2),
      ),
    ].slice(0, 20);
    await this.files.insertFile({
      userId,
      kind: 'image',
      name: `封面-${input.title}.png`.slice(0, 200),
      ext: 'png',
      mime: 'image/png',
      size: png.length,
      storageKey: key,
      keywords: ['封面', ...words],
    });
    return { url: this.storage.publicUrl(key), width: template.width, height: template.height };
  }
}
