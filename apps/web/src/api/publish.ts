import { ErrorCode, limits } from '@inkstone/shared';
import type {
  AccountCount,
  ConnectionState,
  IntentComment,
  LoginConnectBody,
  LoginConnectReply,
  LoginConnection,
  LoginCookieReply,
  LoginScanReply,
  PlatformAccount as SharedPlatformAccount,
  PlatformConfig,
  PlatformLimits,
  PublishArticleBody,
  PublishArticleReply,
  PublishJob,
  PublishPlatform,
  PublishRecord,
  PublishRecordPage,
  PublishResultReply,
  UnreadCountsReply,
} from '@inkstone/shared';
import { get, http, post } from './request';
import type { Page } from '@inkstone/shared';

export type { ConnectionState, LoginConnectReply, LoginConnection, PublishArticleReply, PublishJob, PublishPlatform, PublishRecord, PublishResultReply };

/** Only id is guaranteed for polling callers; the account pages read the full server shape. */
export type PlatformAccount = Pick<SharedPlatformAccount, 'id'> & Partial<SharedPlatformAccount>;
export type BoundAccount = SharedPlatformAccount;
export type AccountUnread = UnreadCountsReply;

export type { AccountCount, IntentComment, PlatformConfig, PlatformLimits };

export interface AccountListQuery {
  pageNum?: number;
  pageSize?: number;
  top?: boolean;
  platform?: PublishPlatform;
  accountName?: string;
}

export const publishApi = {
  /**
   * Polling's account list: page 1, size 200, 30 s (spec 9). No platform filter, unlike the
   * spec's `platform=xiaohongshu`: the 沙箱 and 公众号 accounts carry comments too, and one call
   * for all platforms is cheaper than one per platform.
   */
  accounts: () =>
    get<Page<PlatformAccount>>(
      '/publish/account/list/v3',
      { pageNum: limits.accountsPageNum, pageSize: limits.accountsPageSize },
      { timeout: limits.accountListTimeoutMs, silent: true, quietCodes: [ErrorCode.NOT_FOUND] },
    ),
  /** Stored counts refreshed by the server's engagement job; polled every 15 s. */
  accountUnread: (account: PlatformAccount) =>
    get<AccountUnread>('/publish/account/unread', { accountId: account.id }, { silent: true, quietCodes: [ErrorCode.NOT_FOUND] }),

  list: (q: AccountListQuery = {}) =>
    get<Page<BoundAccount>>(
      '/publish/account/list/v3',
      { pageNum: limits.accountsPageNum, pageSize: limits.accountsPageSize, ...q },
      { timeout: limits.accountListTimeoutMs },
    ),
  count: () => get<AccountCount>('/publish/account/count/v3'),
  unread: (accountId: number) => get<AccountUnread>('/publish/account/unread', { accountId }),

  connect: (body: LoginConnectBody) => post<LoginConnectReply>('/publish-api/chrome/login/connect', body),
  /** Polled every 2 s while the QR is up: failures are shown by the binding dialog itself. */
  connection: (connectionId: string) => get<LoginConnection>('/publish-api/chrome/login/connection', { connectionId }, { silent: true }),
  scan: (connectionId: string) => get<LoginScanReply>('/publish-api/chrome/login/code/scan', { connectionId }, { silent: true }),
  complete: (connectionId: string) => get<LoginCookieReply>('/publish-api/chrome/login/cookie', { connectionId }),
  release: (target: { connectionId?: string; accountId?: number }) =>
    post<{ released: boolean }>('/publish-api/chrome/connection/release', target, { silent: true }),
  /** Spec 8: rejects without a message (the request layer keeps this path quiet). */
  bind: (connectionId: string) => post<BoundAccount>('/publish/v4/account/bind', { connectionId }),
  unbind: (accountId: number) => post<null>('/publish/account/unbind', { accountId }),
  setTop: (accountId: number, top: boolean) => post<BoundAccount>('/publish/account/top', { accountId, top }),

  sessionCheck: (accountId: number) =>
    post<{ category: 'sessionCheck'; accountId: number; valid: boolean; status: 'active' | 'expired'; statusReason: string | null }>(
      '/publish-api/publish/passthrough',
      { category: 'sessionCheck', accountId },
    ),
  config: () => post<PlatformConfig>('/publish-api/publish/passthrough', { category: 'config' }),

  publish: (body: PublishArticleBody) => post<PublishArticleReply>('/publish-api/publish/article', body),
  result: (publishId: string) => get<PublishResultReply>('/publish-api/publish/result', { publishId }, { silent: true }),
  /** The signed-in user's publish history from the server (any browser), newest first. */
  records: (q: { accountId?: number; pageNum: number; pageSize: number }) => get<PublishRecordPage>('/publish/record/list', q, { silent: true }),
  /** The screenshot needs the login header, so it is fetched as a blob rather than linked. */
  screenshot: async (url: string) => (await http.get<Blob>(url, { responseType: 'blob' })).data,

  tags: (text: string) => get<{ tags: string[] }>('/agent/xhs/tags', { text }, { silent: true }),
  intentComments: (q: { accountId: number; pageNum: number; pageSize: number }) => get<Page<IntentComment>>('/thirdparty/intension/comment', q),
};
