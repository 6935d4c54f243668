import type { NoticeBubble, NoticeItem, NoticePage } from '@inkstone/shared';
import { get, post } from './request';

export type { NoticeItem };

export const noticeApi = {
  /** Polled: never toasts; 401/430 still end the session. */
  bubble: () => get<NoticeBubble>('/notice/bubble', undefined, { silent: true }),
  list: (q: { pageNum: number; pageSize: number; type?: string }) => get<NoticePage>('/notice/v2/list', q),
  detail: (id: NoticeItem['id']) => get<NoticeItem>('/notice/detail', { id }),
  read: (id: NoticeItem['id']) => post<null>('/notice/read', undefined, { params: { id } }),
  readAll: () => post<null>('/notice/all/read'),
};
