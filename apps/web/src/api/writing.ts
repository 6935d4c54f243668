import type { AbilityCreateBody, ApiBody, ImageItem, Persona, PersonaSaveBody, SavedHomeInput, TaskCreateBody } from '@inkstone/shared';
import { api } from './client';
import { request, type DownloadResult, type RequestOptions } from './request';

export type { Persona, PersonaSaveBody };

export type { ImageItem };
export type { SavedHomeInput };
/** The home input as saved: the stored shape with its box named. */
export type SaveHomeInput = ApiBody<'/writing/style/save/homepage/input'>;

function multipart(file: File): FormData {
  const fd = new FormData();
  fd.append('file', file);
  return fd;
}

export const writingApi = {
  abilityTypes: () => api.get('/writing/ability/types', undefined, { silent: true }),
  models: () => api.get('/writing/model/list'),
  searchStatus: () => api.get('/writing/search/status'),
  homeInput: (createType: 'article' | 'graphic') => api.get('/writing/style/homepage/input', { createType }),
  saveHomeInput: (body: SaveHomeInput) => api.post('/writing/style/save/homepage/input', body),
  styles: () => api.get('/writing/style/home/v2'),
  words: () => api.get('/writing/style/homepage/words/v2'),
  festivals: (year: number) => api.get('/mpTopic/v2/festival', { year }),

  createTask: (body: Partial<TaskCreateBody> & Pick<TaskCreateBody, 'content'>) => api.post('/mp/task/create', { createType: 'article', ...body }),
  taskInfo: (taskId: string) => api.get('/mp/task/info', { taskId }),
  /** EventSource cannot send the session header: a one-minute ticket for this task goes in the stream URL instead. */
  streamTicket: (taskId: string) => api.post('/mp/task/stream/ticket', { taskId }, { silent: true }),
  createAbility: (body: AbilityCreateBody) => api.post('/writing/ability/create', body),
  /** Spec section 8: any failure shows the server-busy message, so the caller toasts, not the request layer. */
  generateTitles: (body: ApiBody<'/writing/title/generate'>) => api.post('/writing/title/generate', body, { silent: true }),

  drafts: (pageNum = 1, pageSize = 50) => api.get('/writing/draft/list', { pageNum, pageSize }),
  draft: (id: number) => api.get('/writing/draft/detail', { id }),
  saveDraft: (body: ApiBody<'/writing/draft/save'>, options?: Omit<RequestOptions, 'params'>) => api.post('/writing/draft/save', body, options),
  deleteDraft: (id: number) => api.post('/writing/draft/delete', { id }),
  exportDraft: (id: number, format: 'docx' | 'md') =>
    // A file, not the envelope: outside the typed map, the request layer hands back the download whole.
    request<DownloadResult>({ method: 'GET', url: '/writing/draft/export', params: { id, format }, responseType: 'blob' }),

  personas: () => api.get('/persona/list'),
  persona: (id: number, options?: RequestOptions) => api.get('/persona/detail', { id }, options),
  savePersona: (body: PersonaSaveBody) => api.post('/persona/save', body),
  deletePersona: (id: number) => api.post('/persona/delete', { id }),

  uploadFile: (file: File) => api.post('/writing/file/upload', multipart(file)),
  files: () => api.get('/writing/file/list'),
  deleteFile: (id: number) => api.post('/writing/file/delete', { id }),

  /** Failures are toasted by the uploader itself ('上传失败', 3 s), so the layer stays quiet. */
  uploadImage: (file: File) => api.post('/wx/upload', multipart(file), { silent: true }),
  searchImages: (keyword: string) => api.get('/material/v3/image/search', { keyword }),
};

/** Saves a download the request layer returned whole. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
