import { get, post } from './request';

export interface NoticeItem {
  id: number | string;
  title: string;
  content: string;
  type: string;
  createdAt: string;
  read: boolean;
  /** In-app route the notice opens (e.g. /orderInfo); null when it only has text. */
  link?: string | null;
}
export interface Page<T> {
  records: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export const noticeApi = {
  /** Polled: never toasts; 401/430 still end the session. */
  bubble: () => get<{ unreadNoticeNum: number }>('/notice/bubble', undefined, { silent: true }),
  list: (q: { pageNum: number; pageSize: number; type?: string }) => get<Page<NoticeItem>>('/notice/v2/list', q),
  detail: (id: NoticeItem['id']) => get<NoticeItem>('/notice/detail', { id }),
  read: (id: NoticeItem['id']) => post<null>('/notice/read', undefined, { params: { id } }),
  readAll: () => post<null>('/notice/all/read'),
};
