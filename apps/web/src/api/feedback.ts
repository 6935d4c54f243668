import type { FeedbackItem, FeedbackPage } from '@inkstone/shared';
import { get, post } from './request';

export type { FeedbackItem };

export const feedbackApi = {
  submit: (body: { content: string; images: string[]; contact?: string }) => post<FeedbackItem>('/feedback/submit', body),
  list: (q: { pageNum: number; pageSize: number }) => get<FeedbackPage>('/feedback/list', q),
};
