import {
  ErrorCode,
  limits,
  type LedgerEntry,
  type OrderStatus,
  type PayChannel,
  type PayQr,
  type PointCost,
  type PointsBundle,
  type VipPlan,
} from '@inkstone/shared';
import { get, post } from './request';
import type { Page } from './notice';

export type { LedgerEntry, OrderStatus, PayChannel, PayQr, PointCost, PointsBundle, VipPlan };

export interface UserScore {
  score?: number;
  totalScore?: number;
  vipType?: string;
  expiredTime?: string | null;
  openPayment?: boolean;
}

export interface VipUserInfo {
  isVip: boolean;
  vipType: string;
  expiredTime: string | null;
  openPayment: boolean;
}

export interface OrderItem {
  orderNo: string;
  kind: 'vip' | 'bundle';
  itemName: string;
  amount: number;
  payChannel: string;
  status: OrderStatus['status'];
  createdAt: string;
  paidAt: string | null;
  sandbox: boolean;
}

export interface CodeExchangeResult {
  kind: 'points' | 'vip_days';
  value: number;
  score: number;
  vipExpiredTime: string | null;
}

export interface InviteRules {
  inviterReward: number;
  inviteeReward: number;
}

export interface ActivityConfig {
  invite: InviteRules;
  dailyReward: number;
  returnReward: number;
  returnAfterDays: number;
  openPayment: boolean;
  /** Points a new account received at registration; 0 = none. */
  welcomePoints: number;
}

export interface InvitePopup {
  inviteCode: string;
  rules: InviteRules;
  invitedCount: number;
  inviteSuccessInfo: { role: 'inviter' | 'invitee'; reward: number; nickname: string; createdAt: string } | null;
}

export interface Contest {
  id: string;
  name: string;
  startAt: string;
  endAt: string;
  active: boolean;
}

export interface HomepageActivity {
  dailyReward: number;
  returnReward: number;
  logo: string;
  dailyClaimedToday: boolean | null;
  contest: Contest | null;
}

export interface DailyClaim {
  claimed: boolean;
  dailyReward: number;
  returnReward: number;
  score: number;
  day: string;
}

/** What a 1501 reply carries (spec section 4, "Lacking points"). */
export interface PointsInsufficient {
  iDataEventId: string;
  balance: number;
  need: number;
}

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
  contestTimestamp: () => get<{ serverTime: number; contest: Contest | null }>('/contest/activity/timestamp'),
  claimDaily: () => post<DailyClaim>('/vip/activity/daily/claim'),
};
