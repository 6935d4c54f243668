import { ErrorCode, limits } from '@inkstone/shared';
import { get, post } from './request';
import type { Page } from './notice';

export interface PlatformAccount {
  id: number | string;
  accountName?: string;
  /** A JSON list of cookies, as the account service returns it. */
  cookies?: string;
}
export interface AccountUnread {
  unread_count: number;
  likes: number;
  connections: number;
  mentions: number;
}

export const publishApi = {
  /** Spec: page 1, size 200, platform xiaohongshu, 30 s. The accounts API may not exist yet (1002). */
  accounts: () =>
    get<Page<PlatformAccount>>(
      '/publish/account/list/v3',
      { pageNum: limits.accountsPageNum, pageSize: limits.accountsPageSize, platform: 'xiaohongshu' },
      { timeout: limits.accountListTimeoutMs, silent: true, quietCodes: [ErrorCode.NOT_FOUND] },
    ),
  /** Path not given by the spec; chosen in the same style as the other passthrough calls. */
  accountUnread: (account: PlatformAccount) =>
    post<AccountUnread>(
      '/publish-api/publish/passthrough',
      { category: 'unreadCount', platform: 'xiaohongshu', subcategory: 'unread_count', accountId: account.id, cookies: account.cookies },
      { silent: true, quietCodes: [ErrorCode.NOT_FOUND] },
    ),
};
