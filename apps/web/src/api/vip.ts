import {
  ErrorCode,
  limits,
  type ActivityConfig,
  type CodeExchangeResult,
  type Contest,
  type ContestTimestamp,
  type DailyClaim,
  type HomepageActivity,
  type InvitePopup,
  type InviteRules,
  type LedgerEntry,
  type OrderItem,
  type OrderStatus,
  type Page,
  type PayChannel,
  type PayQr,
  type PointCost,
  type PointsBundle,
  type PointsInsufficient,
  type UserScore,
  type VipPlan,
  type VipUserInfo,
} from '@inkstone/shared';
import { get, post } from './request';

export type {
  ActivityConfig, CodeExchangeResult, Contest, DailyClaim, HomepageActivity, InvitePopup, InviteRules, LedgerEntry, OrderItem, OrderStatus,
  PayChannel, PayQr, PointCost, PointsBundle, PointsInsufficient, UserScore, VipPlan, VipUserInfo,
};

/** Which purchase a QR code belongs to: the two kinds have their own create and status calls. */
export type PurchaseKind = 'vip' | 'bundle';

export const vipApi = {
  /** May not exist yet (1002): the caller treats that as "no balance known". */
  userScore: () => get<UserScore>('/vip/user/score', undefined, { quietCodes: [ErrorCode.NOT_FOUND] }),
  userInfo: () => get<VipUserInfo>('/vip/user/info'),
  plans: () => get<VipPlan[]>('/vip/subscribe/category'),
  bundles: () => get<PointsBundle[]>('/vip/score/bundle/list'),
  bundleCategories: () => get<PointsBundle[]>('/vip/score/bundle/category'),
  pointCosts: () => get<PointCost[]>('/vip/score/point/consume'),
  history: (pageNum: number, pageSize: number) => get<Page<LedgerEntry>>('/vip/score/consume/list', { pageNum, pageSize }),
  orders: (pageNum: number, pageSize: number) => get<Page<OrderItem>>('/vip/order/list', { pageNum, pageSize }),

  /**
   * Creates the order and its QR code (spec section 9: 30 s, cancellable). 1503 (channel not open)
   * is left to the caller, which switches channel instead of toasting.
   */
  createQr: (kind: PurchaseKind, itemId: string, payChannel: PayChannel | undefined, signal: AbortSignal) =>
    post<PayQr>(
      kind === 'vip' ? '/vip/pay/qrcode' : '/vip/pay/score-bundle/qrcode',
      kind === 'vip' ? { categoryId: itemId, payChannel } : { bundleId: itemId, payChannel },
      { timeout: limits.payQrTimeoutMs, signal, quietCodes: [ErrorCode.PAY_CHANNEL_UNAVAILABLE] },
    ),
  /** Polled every 2 s while the QR modal is open: failures are retried by the next tick, not toasted. */
  orderStatus: (kind: PurchaseKind, orderNo: string, signal?: AbortSignal) =>
    get<OrderStatus>(kind === 'vip' ? '/vip/pay/order/status' : '/vip/pay/score-bundle/order/status', { orderNo }, { silent: true, signal }),

  redeemCoupon: (code: string) => post<CodeExchangeResult>('/vip/coupon-code/exchange', { code }),
  redeemRightsCode: (code: string) => get<CodeExchangeResult>('/rightsCode/exchange', { code }),

  activityConfig: () => get<ActivityConfig>('/vip/activity/config'),
  invitePopup: () => get<InvitePopup>('/vip/activity/invite/popup'),
  homepageActivity: () => get<HomepageActivity>('/activity/homepage/config'),
  contestTimestamp: () => get<ContestTimestamp>('/contest/activity/timestamp'),
  claimDaily: () => post<DailyClaim>('/vip/activity/daily/claim'),
};
