import {
  ErrorCode,
  limits,
  type CodeExchangeResult,
  type LedgerEntry,
  type OrderItem,
  type PayChannel,
  type PayQr,
  type PointCost,
  type PointsBundle,
  type VipPlan,
} from '@inkstone/shared';
import { api } from './client';

export type { CodeExchangeResult, LedgerEntry, OrderItem, PayChannel, PayQr, PointCost, PointsBundle, VipPlan };

/** Which purchase a QR code belongs to: the two kinds have their own create and status calls. */
export type PurchaseKind = 'vip' | 'bundle';

export const vipApi = {
  /** May not exist yet (1002): the caller treats that as "no balance known". */
  userScore: () => api.get('/vip/user/score', undefined, { quietCodes: [ErrorCode.NOT_FOUND] }),
  userInfo: () => api.get('/vip/user/info'),
  plans: () => api.get('/vip/subscribe/category'),
  bundles: () => api.get('/vip/score/bundle/list'),
  bundleCategories: () => api.get('/vip/score/bundle/category'),
  pointCosts: () => api.get('/vip/score/point/consume'),
  history: (pageNum: number, pageSize: number) => api.get('/vip/score/consume/list', { pageNum, pageSize }),
  orders: (pageNum: number, pageSize: number) => api.get('/vip/order/list', { pageNum, pageSize }),

  /**
   * Creates the order and its QR code (spec section 9: 30 s, cancellable). 1503 (channel not open)
   * is left to the caller, which switches channel instead of toasting.
   */
  createQr: (kind: PurchaseKind, itemId: string, payChannel: PayChannel | undefined, signal: AbortSignal) => {
    const options = { timeout: limits.payQrTimeoutMs, signal, quietCodes: [ErrorCode.PAY_CHANNEL_UNAVAILABLE] };
    return kind === 'vip'
      ? api.post('/vip/pay/qrcode', { categoryId: itemId, payChannel }, options)
      : api.post('/vip/pay/score-bundle/qrcode', { bundleId: itemId, payChannel }, options);
  },
  /** Polled every 2 s while the QR modal is open: failures are retried by the next tick, not toasted. */
  orderStatus: (kind: PurchaseKind, orderNo: string, signal?: AbortSignal) =>
    api.get(kind === 'vip' ? '/vip/pay/order/status' : '/vip/pay/score-bundle/order/status', { orderNo }, { silent: true, signal }),

  redeemCoupon: (code: string) => api.post('/vip/coupon-code/exchange', { code }),
  redeemRightsCode: (code: string) => api.get('/rightsCode/exchange', { code }),

  activityConfig: () => api.get('/vip/activity/config'),
  invitePopup: () => api.get('/vip/activity/invite/popup'),
  homepageActivity: () => api.get('/activity/homepage/config'),
  contestTimestamp: () => api.get('/contest/activity/timestamp'),
  claimDaily: () => api.post('/vip/activity/daily/claim'),
};
