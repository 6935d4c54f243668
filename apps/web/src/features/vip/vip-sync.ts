import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { vipApi } from '../../api/vip';
import { pointsFrom, useUserVipStore } from '../../stores/user-vip';

/** Every VIP/points query key starts with this, so one invalidation refreshes all of them. */
export const VIP_QUERY_ROOT = 'vip';
export const vipKeys = {
  plans: [VIP_QUERY_ROOT, 'plans'] as const,
  bundles: [VIP_QUERY_ROOT, 'bundles'] as const,
  costs: [VIP_QUERY_ROOT, 'costs'] as const,
  history: (pageNum: number) => [VIP_QUERY_ROOT, 'history', pageNum] as const,
  orders: (pageNum: number) => [VIP_QUERY_ROOT, 'orders', pageNum] as const,
  activityConfig: [VIP_QUERY_ROOT, 'activity-config'] as const,
  invitePopup: [VIP_QUERY_ROOT, 'invite-popup'] as const,
  homepage: [VIP_QUERY_ROOT, 'homepage'] as const,
};

/**
 * Re-reads balance and VIP state into the user-vip store (the header and every page read it from
 * there). Both calls are independent: one failing keeps the other's answer.
 */
export async function refreshVipState(): Promise<void> {
  const [score, info] = await Promise.allSettled([vipApi.userScore(), vipApi.userInfo()]);
  const set = useUserVipStore.getState().setVip;
  if (score.status === 'fulfilled') set({ hwPoints: pointsFrom(score.value), pointsKnown: true });
  if (info.status === 'fulfilled') {
    set({ vipType: info.value.vipType, expiredTime: info.value.expiredTime, openPayment: info.value.openPayment });
  }
}

/** After a payment, a redemption or a claim: store and cached lists catch up without a reload. */
export function useRefreshVip(): () => Promise<void> {
  const qc = useQueryClient();
  return useCallback(async () => {
    await Promise.all([refreshVipState(), qc.invalidateQueries({ queryKey: [VIP_QUERY_ROOT] })]);
  }, [qc]);
}
