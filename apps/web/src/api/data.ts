import type { ApiQuery } from '@inkstone/shared';
import { api } from './client';
import { request, type DownloadResult } from './request';

export type DataRangeParams = ApiQuery<'/data/overview'>;
export type DataSeriesParams = ApiQuery<'/data/series'>;
export type DataNotesParams = ApiQuery<'/data/notes'>;
export type DataTopParams = ApiQuery<'/data/top'>;
export type DataExportParams = DataRangeParams & { kind: 'notes' | 'series'; platform?: string; q?: string };

export const dataApi = {
  overview: (q: DataRangeParams) => api.get('/data/overview', q),
  series: (q: DataSeriesParams) => api.get('/data/series', q),
  accounts: (q: DataRangeParams) => api.get('/data/accounts', q),
  notes: (q: DataNotesParams) => api.get('/data/notes', q),
  heatmap: (q: DataRangeParams) => api.get('/data/heatmap', q),
  top: (q: DataTopParams) => api.get('/data/top', q),
  /** Rate-limited per user: the layer stays quiet so the page shows the envelope's message in place. */
  refresh: (accountId?: number) => api.post('/data/refresh', undefined, { params: accountId ? { accountId } : {}, silent: true }),
  /** A CSV file, not the envelope: outside the typed map; it needs the login header, so it is fetched as a blob. */
  exportCsv: (q: DataExportParams) => request<DownloadResult>({ method: 'GET', url: '/data/export.csv', params: q, responseType: 'blob' }),
  /** The PDF report of the dashboard (printed by the server's Chromium), fetched like the CSV. */
  exportPdf: (q: DataRangeParams) => request<DownloadResult>({ method: 'GET', url: '/data/report.pdf', params: q, responseType: 'blob' }),
};
