import { ErrorCode, type ApiBody, type ApiQuery } from '@inkstone/shared';
import { api } from '../../api/client';
import { request, type DownloadResult } from '../../api/request';
import { withReauth } from './reauth';

/**
 * The console's calls. They live in the console's chunk (not `api/`), so a normal user never downloads them. Every
 * call goes through `withReauth`: a reply asking for a fresh SMS code opens the prompt and, once verified, the call
 * is made again; the request layer stays quiet about that code so no toast doubles the prompt.
 */
const quiet = { quietCodes: [ErrorCode.ADMIN_REAUTH_REQUIRED] };

export type AdminUserQuery = ApiQuery<'/admin/users'>;
export type AdminOrderQuery = ApiQuery<'/admin/orders'>;
export type AdminAuditQuery = ApiQuery<'/admin/audit'>;
export type SitePlatform = ApiQuery<'/admin/platform-health/profile'>['platform'];

export const adminApi = {
  reauthSend: () => api.post('/admin/reauth/send'),
  reauth: (code: string) => api.post('/admin/reauth', { code }),

  users: (q: AdminUserQuery) => withReauth(() => api.get('/admin/users', q, quiet)),
  userDetail: (userId: number) => withReauth(() => api.get('/admin/users/detail', { userId }, quiet)),
  userLedger: (userId: number, pageNum: number, pageSize: number) => withReauth(() => api.get('/admin/users/ledger', { userId, pageNum, pageSize }, quiet)),
  userOrders: (userId: number, pageNum: number, pageSize: number) => withReauth(() => api.get('/admin/users/orders', { userId, pageNum, pageSize }, quiet)),
  points: (body: { userId: number; direction: 'grant' | 'deduct'; amount: number; reason: string; requestId: string }) =>
    withReauth(() => api.post('/admin/users/points', body, quiet)),
  vipExtend: (userId: number, days: number, reason: string) => withReauth(() => api.post('/admin/users/vip', { userId, action: 'extend', days, reason }, quiet)),
  vipRevoke: (userId: number, reason: string) => withReauth(() => api.post('/admin/users/vip', { userId, action: 'revoke', reason }, quiet)),
  ban: (userId: number, banned: boolean, reason: string) => withReauth(() => api.post('/admin/users/ban', { userId, banned, reason }, quiet)),
  resetNickname: (userId: number, reason: string) => withReauth(() => api.post('/admin/users/nickname/reset', { userId, reason }, quiet)),
  setRole: (userId: number, role: 'owner' | 'operator' | 'support' | 'viewer' | null) => withReauth(() => api.post('/admin/users/role', { userId, role }, quiet)),

  orders: (q: AdminOrderQuery) => withReauth(() => api.get('/admin/orders', q, quiet)),
  orderDetail: (orderNo: string) => withReauth(() => api.get('/admin/orders/detail', { orderNo }, quiet)),
  refund: (body: { orderNo: string; amount: number; reason: string; requestId: string }) => withReauth(() => api.post('/admin/orders/refund', body, quiet)),

  catalogue: () => withReauth(() => api.get('/admin/catalogue', undefined, quiet)),
  savePlan: (body: ApiBody<'/admin/catalogue/plan'>) => withReauth(() => api.post('/admin/catalogue/plan', body, quiet)),
  saveBundle: (body: ApiBody<'/admin/catalogue/bundle'>) => withReauth(() => api.post('/admin/catalogue/bundle', body, quiet)),
  setPointCost: (body: ApiBody<'/admin/catalogue/point-cost'>) => withReauth(() => api.post('/admin/catalogue/point-cost', body, quiet)),
  withdrawPointCost: (id: number) => withReauth(() => api.post('/admin/catalogue/point-cost/withdraw', { id }, quiet)),

  codeBatches: (pageNum: number, pageSize: number) => withReauth(() => api.get('/admin/codes/batches', { pageNum, pageSize }, quiet)),
  redemptions: (q: ApiQuery<'/admin/codes/redemptions'>) => withReauth(() => api.get('/admin/codes/redemptions', q, quiet)),
  generateCodes: (body: ApiBody<'/admin/codes/generate'>) => withReauth(() => api.post('/admin/codes/generate', body, quiet)),
  disableCodes: (batch: string) => withReauth(() => api.post('/admin/codes/disable', { batch }, quiet)),
  codesCsv: (batch: string) => withReauth(() => request<DownloadResult>({ method: 'GET', url: '/admin/codes/export.csv', params: { batch }, responseType: 'blob', ...quiet })),

  dashboard: (q: ApiQuery<'/admin/dashboard'>) => withReauth(() => api.get('/admin/dashboard', q, quiet)),
  retryJob: (name: string, id: string) => withReauth(() => api.post('/admin/jobs/retry', { name, id }, quiet)),
  notices: (pageNum: number, pageSize: number) => withReauth(() => api.get('/admin/notices', { pageNum, pageSize }, quiet)),
  createNotice: (body: ApiBody<'/admin/notices/create'>) => withReauth(() => api.post('/admin/notices/create', body, quiet)),
  withdrawNotice: (id: number) => withReauth(() => api.post('/admin/notices/withdraw', { id }, quiet)),

  models: () => withReauth(() => api.get('/admin/models', undefined, quiet)),
  createModel: (body: ApiBody<'/admin/models/create'>) => withReauth(() => api.post('/admin/models/create', body, quiet)),
  updateModel: (body: ApiBody<'/admin/models/update'>) => withReauth(() => api.post('/admin/models/update', body, quiet)),
  testModel: (id: string) => withReauth(() => api.post('/admin/models/test', { id }, quiet)),
  lexicon: (q: ApiQuery<'/admin/lexicon'>) => withReauth(() => api.get('/admin/lexicon', q, quiet)),
  addWord: (word: string) => withReauth(() => api.post('/admin/lexicon/add', { word }, quiet)),
  removeWord: (word: string) => withReauth(() => api.post('/admin/lexicon/remove', { word }, quiet)),
  sources: () => withReauth(() => api.get('/admin/sources', undefined, quiet)),
  switchSource: (body: ApiBody<'/admin/sources/switch'>) => withReauth(() => api.post('/admin/sources/switch', body, quiet)),
  flags: () => withReauth(() => api.get('/admin/flags', undefined, quiet)),

  platformHealth: () => withReauth(() => api.get('/admin/platform-health', undefined, quiet)),
  stepFailures: (q: ApiQuery<'/admin/platform-health/failures'>) => withReauth(() => api.get('/admin/platform-health/failures', q, quiet)),
  siteProfile: (platform: SitePlatform) => withReauth(() => api.get('/admin/platform-health/profile', { platform }, quiet)),
  /** A refused override answers 1001 with `data.errors`: the editor lists them, so no toast. */
  saveSiteProfile: (body: ApiBody<'/admin/platform-health/profile/save'>) =>
    withReauth(() => api.post('/admin/platform-health/profile/save', body, { quietCodes: [ErrorCode.ADMIN_REAUTH_REQUIRED, ErrorCode.VALIDATION] })),
  rollbackSiteProfile: (platform: SitePlatform, version: number) => withReauth(() => api.post('/admin/platform-health/profile/rollback', { platform, version }, quiet)),
  /** A failure's screenshot (PNG, outside the typed map): fetched with the login header, shown from a blob. */
  stepScreenshot: (id: number) =>
    withReauth(() => request<DownloadResult>({ method: 'GET', url: '/admin/platform-health/screenshot', params: { id }, responseType: 'blob', ...quiet })),

  audit: (q: AdminAuditQuery) => withReauth(() => api.get('/admin/audit', q, quiet)),
  /** A CSV file, outside the typed map (it answers a file, not the envelope). */
  auditCsv: (q: AdminAuditQuery) => withReauth(() => request<DownloadResult>({ method: 'GET', url: '/admin/audit/export.csv', params: q, responseType: 'blob', ...quiet })),
};

/** Saves a downloaded file under its server-given name. */
export function saveDownload(file: DownloadResult, fallback: string): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename ?? fallback;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One id per intended operation: a retry of the same click sends the same id, so the server applies it once. */
export const newRequestId = () => crypto.randomUUID();
