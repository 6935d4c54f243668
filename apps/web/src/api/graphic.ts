import type { ApiBody, CardAspect, CoverBody } from '@inkstone/shared';
import { api } from './client';
import { request, type DownloadResult } from './request';

/** The body of a graphic task: the home input plus the card options (createType is set here). */
export type GraphicCreateBody = Omit<Extract<ApiBody<'/mp/task/create'>, { createType: 'graphic' }>, 'createType'>;

export const graphicApi = {
  /** A 1080x1440 cover card rendered from the title; stored in the user's image library. */
  cover: (body: CoverBody) => api.post('/graphic/cover', body),

  /** mp/task/create is a background call for the request layer (spec section 4): the caller says why it failed. */
  createTask: (body: GraphicCreateBody) => api.post('/mp/task/create', { ...body, createType: 'graphic' }, { silent: true }),
  info: (taskId: string) => api.get('/graphic/task/info', { taskId }),
  templates: () => api.get('/graphic/templates'),
  imagegenStatus: () => api.get('/graphic/imagegen/status'),
  materialStatus: () => api.get('/graphic/material/status'),
  materialSearch: (q: string, page = 1) => api.get('/graphic/material/search', { q, page }),
  setMaterial: (taskId: string, index: number, photoId: string) => api.post('/graphic/card/image/material', { taskId, index, photoId }),
  topics: (text: string) => api.get('/graphic/recommend/topic', { text }, { silent: true }),

  updateCard: (body: ApiBody<'/graphic/card/update'>) => api.post('/graphic/card/update', body),
  style: (body: ApiBody<'/graphic/card/style'>) => api.post('/graphic/card/style', body),
  reorder: (taskId: string, order: string[]) => api.post('/graphic/card/reorder', { taskId, order }),
  addCard: (body: ApiBody<'/graphic/card/add'>) => api.post('/graphic/card/add', body),
  removeCard: (taskId: string, index: number) => api.post('/graphic/card/remove', { taskId, index }),
  /** The card's picture becomes the file (an upload, or the image editor's PNG). */
  uploadImage: (taskId: string, index: number, file: Blob, name = 'card.png', aspect?: CardAspect) => {
    const fd = new FormData();
    fd.append('file', file, name);
    return api.post('/graphic/card/image/upload', fd, { params: { taskId, index, ...(aspect ? { aspect } : {}) } });
  },
  setImage: (taskId: string, index: number, imageUrl: string) => api.post('/graphic/card/image/set', { taskId, index, imageUrl }),
  aiImage: (taskId: string, index: number, prompt?: string) => api.post('/graphic/card/image/ai', { taskId, index, ...(prompt ? { prompt } : {}) }),
  /** Autosave: quiet, the editor shows its own saved/failed state. */
  saveDraft: (body: ApiBody<'/graphic/draft/save'>) => api.post('/graphic/draft/save', body, { silent: true }),
  /** A zip file, not the envelope: outside the typed map, the request layer hands back the download whole. */
  zip: (taskId: string) => request<DownloadResult>({ method: 'GET', url: '/graphic/task/zip', params: { taskId }, responseType: 'blob' }),
};
