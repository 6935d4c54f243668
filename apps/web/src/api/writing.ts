import type {
  AbilityCreateBody,
  DraftDetail,
  DraftItem,
  FestivalItem,
  HomeInput,
  ImageItem,
  ModelItem,
  Page,
  Persona,
  PersonaSaveBody,
  QuoteFile,
  SearchStatus,
  StreamTicket,
  StyleCard,
  SuggestWord,
  TaskCreateBody,
  TaskInfo,
  WriteType,
} from '@inkstone/shared';
import { get, post, type DownloadResult, type RequestOptions } from './request';

export type { DraftDetail, FestivalItem, HomeInput, ModelItem, Persona, PersonaSaveBody, QuoteFile, TaskInfo, WriteType };

export type { DraftItem, ImageItem, Page, SearchStatus, StyleCard, SuggestWord };
export type SavedHomeInput = HomeInput & { createType: string };

function multipart(file: File): FormData {
  const fd = new FormData();
  fd.append('file', file);
  return fd;
}
// axios must set the multipart boundary itself, so the instance's JSON content type is removed.
const multipartHeaders = { 'Content-Type': undefined } as unknown as Record<string, string>;

export const writingApi = {
  models: () => get<ModelItem[]>('/writing/model/list'),
  searchStatus: () => get<SearchStatus>('/writing/search/status'),
  homeInput: (createType: 'article' | 'graphic') => get<SavedHomeInput>('/writing/style/homepage/input', { createType }),
  saveHomeInput: (body: SavedHomeInput) => post<SavedHomeInput>('/writing/style/save/homepage/input', body),
  styles: () => get<StyleCard[]>('/writing/style/home/v2'),
  words: () => get<SuggestWord[]>('/writing/style/homepage/words/v2'),
  festivals: (year: number) => get<FestivalItem[]>('/mpTopic/v2/festival', { year }),

  createTask: (body: Partial<TaskCreateBody> & Pick<TaskCreateBody, 'content'>) =>
    post<{ taskId: string }>('/mp/task/create', { createType: 'article', ...body }),
  taskInfo: (taskId: string) => get<TaskInfo>('/mp/task/info', { taskId }),
  /** EventSource cannot send the session header: a one-minute ticket for this task goes in the stream URL instead. */
  streamTicket: (taskId: string) => post<StreamTicket>('/mp/task/stream/ticket', { taskId }, { silent: true }),
  createAbility: (body: AbilityCreateBody) => post<{ taskId: string }>('/writing/ability/create', body),
  /** Spec section 8: any failure shows the server-busy message, so the caller toasts, not the request layer. */
  generateTitles: (body: { content: string; count?: number; personaId?: number | null }) =>
    post<{ titles: string[]; isAi: boolean }>('/writing/title/generate', body, { silent: true }),

  drafts: (pageNum = 1, pageSize = 50) => get<Page<DraftItem>>('/writing/draft/list', { pageNum, pageSize }),
  draft: (id: number) => get<DraftDetail>('/writing/draft/detail', { id }),
  saveDraft: (body: { id?: number | null; title: string; html?: string; markdown?: string }, options?: RequestOptions) =>
    post<DraftDetail>('/writing/draft/save', body, options),
  deleteDraft: (id: number) => post<null>('/writing/draft/delete', { id }),
  exportDraft: (id: number, format: 'docx' | 'md') =>
    get<DownloadResult>('/writing/draft/export', { id, format }, { responseType: 'blob' }),

  personas: () => get<Persona[]>('/persona/list'),
  persona: (id: number) => get<Persona>('/persona/detail', { id }),
  savePersona: (body: PersonaSaveBody & { id?: number | null }) => post<Persona>('/persona/save', body),
  deletePersona: (id: number) => post<null>('/persona/delete', { id }),

  uploadFile: (file: File) => post<QuoteFile>('/writing/file/upload', multipart(file), { headers: multipartHeaders }),
  files: () => get<QuoteFile[]>('/writing/file/list'),
  deleteFile: (id: number) => post<null>('/writing/file/delete', { id }),

  /** Failures are toasted by the uploader itself ('上传失败', 3 s), so the layer stays quiet. */
  uploadImage: (file: File) => post<{ url: string }>('/wx/upload', multipart(file), { headers: multipartHeaders, silent: true }),
  searchImages: (keyword: string) => get<ImageItem[]>('/material/v3/image/search', { keyword }),
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
