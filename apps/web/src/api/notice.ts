import type { NoticeItem, NoticeListQuery } from '@inkstone/shared';
import { api } from './client';

export type { NoticeItem };

export const noticeApi = {
  /** Polled: never toasts; 401/430 still end the session. */
  bubble: () => api.get('/notice/bubble', undefined, { silent: true }),
  list: (q: Pick<NoticeListQuery, 'pageNum' | 'pageSize'> & { type?: NoticeListQuery['type'] }) => api.get('/notice/v2/list', q),
  detail: (id: NoticeItem['id']) => api.get('/notice/detail', { id: String(id) }),
  read: (id: NoticeItem['id']) => api.post('/notice/read', undefined, { params: { id: String(id) } }),
  readAll: () => api.post('/notice/all/read'),
};
