import type { FeedbackBody, FeedbackItem } from '@inkstone/shared';
import { api } from './client';

export type { FeedbackItem };

export const feedbackApi = {
  submit: (body: FeedbackBody) => api.post('/feedback/submit', body),
  list: (q: { pageNum: number; pageSize: number }) => api.get('/feedback/list', q),
};
