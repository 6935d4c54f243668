import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { vipApi } from '../../api/vip';
import { pointsFrom, useUserVipStore } from '../../stores/user-vip';

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
    await Promise.all([refreshVipState(), qc.invalidateQueries({ queryKey: queryKeys.vip.all })]);
  }, [qc]);
}
