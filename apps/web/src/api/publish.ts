import { ErrorCode, limits } from '@inkstone/shared';
import type {
  ApiBody,
  ApiQuery,
  ApiReply,
  ConnectionState,
  IntentComment,
  LoginConnectBody,
  PlatformAccount as SharedPlatformAccount,
  PlatformLimits,
  PublishJob,
  PublishPlatform,
  PublishResultReply,
  UnreadCountsReply,
} from '@inkstone/shared';
import { api } from './client';
import { http } from './http';

export type { ConnectionState, PublishJob, PublishPlatform, PublishResultReply };

/** Only id is guaranteed for polling callers; the account pages read the full server shape. */
export type PlatformAccount = Pick<SharedPlatformAccount, 'id'> & Partial<SharedPlatformAccount>;
export type BoundAccount = SharedPlatformAccount;
export type AccountUnread = UnreadCountsReply;

export type { IntentComment, PlatformLimits };

export type AccountListQuery = ApiQuery<'/publish/account/list/v3'>;

type PassthroughBody = ApiBody<'/publish-api/publish/passthrough'>;
/** The passthrough answers in the category it was asked: the reply is narrowed to that member of the union. */
const passthrough = <C extends PassthroughBody['category']>(body: Extract<PassthroughBody, { category: C }>) =>
  api.post('/publish-api/publish/passthrough', body) as Promise<Extract<ApiReply<'/publish-api/publish/passthrough'>, { category: C }>>;

export const publishApi = {
  /**
   * Polling's account list: page 1, size 200, 30 s (spec 9). No platform filter, unlike the
   * spec's `platform=xiaohongshu`: the 沙箱 and 公众号 accounts carry comments too, and one call
   * for all platforms is cheaper than one per platform.
   */
  accounts: () =>
    api.get(
      '/publish/account/list/v3',
      { pageNum: limits.accountsPageNum, pageSize: limits.accountsPageSize },
      { timeout: limits.accountListTimeoutMs, silent: true, quietCodes: [ErrorCode.NOT_FOUND] },
    ),
  /** Stored counts refreshed by the server's engagement job; polled every 15 s. */
  accountUnread: (account: PlatformAccount) => api.get('/publish/account/unread', { accountId: account.id }, { silent: true, quietCodes: [ErrorCode.NOT_FOUND] }),

  list: (q: AccountListQuery = {}) =>
    api.get('/publish/account/list/v3', { pageNum: limits.accountsPageNum, pageSize: limits.accountsPageSize, ...q }, { timeout: limits.accountListTimeoutMs }),
  count: () => api.get('/publish/account/count/v3'),
  unread: (accountId: number) => api.get('/publish/account/unread', { accountId }),

  connect: (body: LoginConnectBody) => api.post('/publish-api/chrome/login/connect', body),
  /** Polled every 2 s while the QR is up: failures are shown by the binding dialog itself. */
  connection: (connectionId: string) => api.get('/publish-api/chrome/login/connection', { connectionId }, { silent: true }),
  scan: (connectionId: string) => api.get('/publish-api/chrome/login/code/scan', { connectionId }, { silent: true }),
  complete: (connectionId: string) => api.get('/publish-api/chrome/login/cookie', { connectionId }),
  release: (target: { connectionId?: string; accountId?: number }) => api.post('/publish-api/chrome/connection/release', target, { silent: true }),
  /** Spec 8: rejects without a message (the request layer keeps this path quiet). */
  bind: (connectionId: string) => api.post('/publish/v4/account/bind', { connectionId }),
  unbind: (accountId: number) => api.post('/publish/account/unbind', { accountId }),
  setTop: (accountId: number, top: boolean) => api.post('/publish/account/top', { accountId, top }),

  sessionCheck: (accountId: number) => passthrough({ category: 'sessionCheck', accountId }),
  config: () => passthrough({ category: 'config' }),

  publish: (body: ApiBody<'/publish-api/publish/article'>) => api.post('/publish-api/publish/article', body),
  result: (publishId: string) => api.get('/publish-api/publish/result', { publishId }, { silent: true }),
  /** The accounts' next free publishing slot under their platform's pacing (a hint in the dialog: failures stay quiet). */
  nextSlot: (accountIds: number[]) => api.get('/publish-api/publish/next-slot', { accountIds: accountIds.join(',') }, { silent: true }),
  /** The signed-in user's publish history from the server (any browser), newest first. */
  records: (q: { accountId?: number; pageNum: number; pageSize: number }) => api.get('/publish/record/list', q, { silent: true }),
  /** The screenshot needs the login header, so it is fetched as a blob rather than linked. */
  screenshot: async (url: string) => (await http.get<Blob>(url, { responseType: 'blob' })).data,

  tags: (text: string) => api.get('/agent/xhs/tags', { text }, { silent: true }),
  intentComments: (q: { accountId: number; pageNum: number; pageSize: number }) => api.get('/thirdparty/intension/comment', q),
};
