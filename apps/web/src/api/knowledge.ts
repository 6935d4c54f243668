import type { KnowledgeDoc, KnowledgeExt, KnowledgeFolder, KnowledgeHit } from '@inkstone/shared';
import { api } from './client';

export type { KnowledgeDoc, KnowledgeExt, KnowledgeFolder, KnowledgeHit };

/** A folder id, 'root' for 未分类, or undefined for the whole library. */
export type FolderFilter = number | 'root' | undefined;

export const knowledgeApi = {
  folders: () => api.get('/knowledge/folder/list'),
  createFolder: (name: string) => api.post('/knowledge/folder/create', { name }),
  renameFolder: (id: number, name: string) => api.post('/knowledge/folder/rename', { id, name }),
  deleteFolder: (id: number) => api.post('/knowledge/folder/delete', { id }),
  quota: () => api.get('/knowledge/quota'),
  docs: (q: { folderId?: FolderFilter; ext?: KnowledgeExt; pageNum?: number; pageSize?: number }) => api.get('/knowledge/doc/list', q, { silent: true }),
  doc: (id: number) => api.get('/knowledge/doc/info', { id }),
  /** Failures are shown by the uploader next to the file, so the layer stays quiet. */
  upload: (file: File, folderId: number | undefined, onProgress: (percent: number) => void) => {
    const fd = new FormData();
    fd.append('file', file);
    return api.post('/knowledge/doc/upload', fd, {
      params: folderId ? { folderId } : {},
      silent: true,
      onUploadProgress: (e) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
    });
  },
  importUrl: (url: string, folderId: number | null) => api.post('/knowledge/doc/import', { url, folderId }, { silent: true }),
  rename: (id: number, name: string) => api.post('/knowledge/doc/rename', { id, name }),
  move: (id: number, folderId: number | null) => api.post('/knowledge/doc/move', { id, folderId }),
  remove: (id: number) => api.post('/knowledge/doc/delete', { id }),
  /** What search can do here (full-text only, or hybrid with the vector model), as one sentence for the page. */
  status: () => api.get('/knowledge/status', undefined, { silent: true }),
  search: (q: { q: string; folderId?: FolderFilter; ext?: KnowledgeExt; docId?: number; limit?: number }) => api.get('/knowledge/search', q, { silent: true }),
};

/** Address of a document's viewer, opened at a page with the passage to highlight. */
export function docViewerHref(docId: number, opts: { page?: number | null; q?: string } = {}): string {
  const p = new URLSearchParams({ fileId: String(docId) });
  if (opts.page) p.set('page', String(opts.page));
  if (opts.q) p.set('q', opts.q.slice(0, 200));
  return `/pdfDetail?${p.toString()}`;
}
