import { limits, type TopicAngles, type TopicAnglesBody, type TrackSaveBody } from '@inkstone/shared';
import { api } from './client';

export type { TopicAngles };

/** 选题: spec section 8 (topic/v3/*: track, suggest, collect). Track calls are background calls (no login modal). */
export const topicApi = {
  trackInfo: () => api.get('/topic/v3/track/info', undefined, { silent: true }),
  saveTracks: (body: TrackSaveBody) => api.post('/topic/v3/track/save', body),
  search: (keyword: string) => api.get('/topic/v3/track/search', { keyword }, { timeout: limits.searchTimeoutMs }),
  hot: (q: { pageNum: number; pageSize: number; track?: string; keyword?: string; source?: string }) => api.get('/topic/v3/hot', q),
  detail: (topicId: number) => api.get('/topic/v3/detail', { topicId }),
  collect: (topicId: number) => api.post('/topic/v3/collect', { topicId }),
  uncollect: (topicId: number) => api.post('/topic/v3/collect/cancel', { topicId }),
  collections: (q: { pageNum: number; pageSize: number }) => api.get('/topic/v3/collect/list', q),
  angles: (body: TopicAnglesBody) => api.post('/topic/v3/suggest', body, { timeout: 90_000 }),
  /** One month of festivals, solar terms, holidays and marketing days (server-side: chinese-days + the marketing table). */
  calendar: (month: string) => api.get('/topic/v3/calendar', { month }),
  saveMap: (body: { id?: number; title: string; data: Record<string, unknown> }) => api.post('/topic/v3/map/save', body),
  maps: () => api.get('/topic/v3/map/list'),
  map: (id: number) => api.get('/topic/v3/map/detail', { id }),
  deleteMap: (id: number) => api.post('/topic/v3/map/delete', { id }),
};
