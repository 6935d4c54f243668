import { ErrorCode, feedbackBody, feedbackReplyMaxLength, type FeedbackBody, type FeedbackItem, type FeedbackPage } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import type { Storage } from '../../integrations/storage/types.js';
import type { PersonalNotices } from '../notice/personal-notices.js';
import { FeedbackRepo, type FeedbackRow } from './feedback.repo.js';

const toItem = (r: FeedbackRow): FeedbackItem => ({
  id: r.id,
  content: r.content,
  images: r.images,
  contact: r.contact,
  status: r.status === 'replied' ? 'replied' : 'open',
  reply: r.reply,
  repliedAt: r.repliedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** The key an upload URL points at: uploads are `public/images/<uuid>.<ext>` (see FileService.uploadImage). */
const imageKeyOf = (url: string): string | null => {
  const m = /\/images\/([0-9a-f-]{36}\.(?:png|jpg|jpeg|gif))(?:[?#].*)?$/i.exec(url);
  return m ? `public/images/${m[1]!.toLowerCase()}` : null;
};

/** 帮助与反馈: users send text (and screenshots they uploaded), operators reply from the admin CLI. */
export class FeedbackService {
  readonly repo: FeedbackRepo;

  constructor(
    db: Db,
    private readonly storage: Storage,
    private readonly notices: PersonalNotices,
    private readonly clock: Clock,
  ) {
    this.repo = new FeedbackRepo(db);
  }

  async submit(userId: number, input: FeedbackBody): Promise<FeedbackItem> {
    const parsed = feedbackBody.safeParse(input);
    if (!parsed.success) throw appError(ErrorCode.VALIDATION, parsed.error.issues[0]?.message);
    const { content, images, contact } = parsed.data;
    const unique = [...new Set(images)];
    // Screenshots go through the image upload (type sniffing, size limit); here they must be the user's own uploads.
    const keys = unique.map((u) => ({ url: u, key: imageKeyOf(u) }));
    const owned = await this.repo.ownImageKeys(
      userId,
      keys.flatMap((k) => (k.key ? [k.key] : [])),
    );
    for (const k of keys) {
      if (!k.key || !owned.has(k.key) || this.storage.publicUrl(k.key) !== k.url) throw appError(ErrorCode.VALIDATION, '截图 images 必须是通过上传图片得到的地址');
    }
    const row = await this.repo.insert({ userId, content, images: unique, contact: contact ?? null, createdAt: this.clock.now() });
    return toItem(row);
  }

  async list(userId: number, q: { pageNum: number; pageSize: number }): Promise<FeedbackPage> {
    const { rows, total } = await this.repo.page(userId, (q.pageNum - 1) * q.pageSize, q.pageSize);
    return { records: rows.map(toItem), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async recent(limit: number, status?: 'open' | 'replied') {
    return this.repo.recent(limit, status);
  }

  /** Stores the reply and puts a `feedbackReply` notice in the user's notice centre, in one transaction. */
  async reply(id: number, text: string): Promise<{ feedback: FeedbackRow; notified: boolean }> {
    const reply = text.trim();
    if (!reply) throw new Error('回复内容不能为空');
    if ([...reply].length > feedbackReplyMaxLength) throw new Error(`回复内容最多${feedbackReplyMaxLength}个字`);
    const existing = await this.repo.byId(id);
    if (!existing) throw new Error(`未找到 id 为 ${id} 的反馈`);
    return this.repo.db.transaction(async (tx) => {
      const row = (await this.repo.setReply(id, reply, this.clock.now(), tx))!;
      const notified = await this.notices.feedbackReplied({ id: row.id, userId: row.userId, content: row.content, reply }, tx);
      return { feedback: row, notified };
    });
  }
}
