import type { KnowledgeDoc, KnowledgeDocPage, KnowledgeExt, KnowledgeFolder, KnowledgeHit, KnowledgeQuota, KnowledgeSearchResult } from '@inkstone/shared';
import { get, post } from './request';

export type { KnowledgeDoc, KnowledgeDocPage, KnowledgeExt, KnowledgeFolder, KnowledgeHit, KnowledgeQuota, KnowledgeSearchResult };

/** A folder id, 'root' for 未分类, or undefined for the whole library. */
export type FolderFilter = number | 'root' | undefined;

// axios must set the multipart boundary itself, so the instance's JSON content type is removed.
const multipartHeaders = { 'Content-Type': undefined } as unknown as Record<string, string>;

export const knowledgeApi = {
  folders: () => get<KnowledgeFolder[]>('/knowledge/folder/list'),
  createFolder: (name: string) => post<KnowledgeFolder>('/knowledge/folder/create', { name }),
  renameFolder: (id: number, name: string) => post<null>('/knowledge/folder/rename', { id, name }),
  deleteFolder: (id: number) => post<null>('/knowledge/folder/delete', { id }),
  quota: () => get<KnowledgeQuota>('/knowledge/quota'),
  docs: (q: { folderId?: FolderFilter; ext?: KnowledgeExt; pageNum?: number; pageSize?: number }) => get<KnowledgeDocPage>('/knowledge/doc/list', q, { silent: true }),
  doc: (id: number) => get<KnowledgeDoc>('/knowledge/doc/info', { id }),
  /** Failures are shown by the uploader next to the file, so the layer stays quiet. */
  upload: (file: File, folderId: number | undefined, onProgress: (percent: number) => void) => {
    const fd = new FormData();
    fd.append('file', file);
    return post<KnowledgeDoc>(`/knowledge/doc/upload${folderId ? `?folderId=${folderId}` : ''}`, fd, {
      headers: multipartHeaders,
      silent: true,
      onUploadProgress: (e) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
    });
  },
  importUrl: (url: string, folderId: number | null) => post<KnowledgeDoc>('/knowledge/doc/import', { url, folderId }, { silent: true }),
  rename: (id: number, name: string) => post<KnowledgeDoc>('/knowledge/doc/rename', { id, name }),
  move: (id: number, folderId: number | null) => post<KnowledgeDoc>('/knowledge/doc/move', { id, folderId }),
  remove: (id: number) => post<null>('/knowledge/doc/delete', { id }),
  search: (q: { q: string; folderId?: FolderFilter; ext?: KnowledgeExt; docId?: number; limit?: number }) =>
    get<KnowledgeSearchResult>('/knowledge/search', q, { silent: true }),
};

/** Address of a document's viewer, opened at a page with the passage to highlight. */
export function docViewerHref(docId: number, opts: { page?: number | null; q?: string } = {}): string {
  const p = new URLSearchParams({ fileId: String(docId) });
  if (opts.page) p.set('page', String(opts.page));
  if (opts.q) p.set('q', opts.q.slice(0, 200));
  return `/pdfDetail?${p.toString()}`;
}
