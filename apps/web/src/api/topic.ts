import type { MapItem, TopicAngles, TopicAnglesBody, TopicCollectPage, TopicHotPage, TopicItem, TrackInfo, TrackSaveBody, TrackSearchResult } from '@inkstone/shared';
import { get, post } from './request';

export type { MapItem, TopicAngles, TopicHotPage, TopicItem, TrackInfo, TrackSearchResult };

/** 选题: spec section 8 (topic/v3/*: track, suggest, collect). Track calls are background calls (no login modal). */
export const topicApi = {
  trackInfo: () => get<TrackInfo>('/topic/v3/track/info', undefined, { silent: true }),
  saveTracks: (body: TrackSaveBody) => post<TrackInfo>('/topic/v3/track/save', body),
  // The spec gives track/search a 30 s timeout.
  search: (keyword: string) => get<TrackSearchResult>('/topic/v3/track/search', { keyword }, { timeout: 30_000 }),
  hot: (q: { pageNum: number; pageSize: number; track?: string; keyword?: string; source?: string }) => get<TopicHotPage>('/topic/v3/hot', q),
  detail: (topicId: number) => get<TopicItem>('/topic/v3/detail', { topicId }),
  collect: (topicId: number) => post<{ topicId: number; collected: boolean }>('/topic/v3/collect', { topicId }),
  uncollect: (topicId: number) => post<{ topicId: number; collected: boolean }>('/topic/v3/collect/cancel', { topicId }),
  collections: (q: { pageNum: number; pageSize: number }) => get<TopicCollectPage>('/topic/v3/collect/list', q),
  angles: (body: TopicAnglesBody) => post<TopicAngles>('/topic/v3/suggest', body, { timeout: 90_000 }),
  saveMap: (body: { id?: number; title: string; data: Record<string, unknown> }) => post<MapItem>('/topic/v3/map/save', body),
  maps: () => get<Array<Omit<MapItem, 'data'>>>('/topic/v3/map/list'),
  map: (id: number) => get<MapItem>('/topic/v3/map/detail', { id }),
  deleteMap: (id: number) => post<null>('/topic/v3/map/delete', { id }),
};
