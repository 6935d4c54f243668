import { useEffect } from 'react';
import { Button, Modal } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { vipApi } from '../../api/vip';
import { useUserVipStore } from '../../stores/user-vip';
import { useRefreshVip } from './vip-sync';
import './vip.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

/** The dictionary name of what the user tried, when the event id is a known feature. */
export function useFeatureName(iDataEventId: string | null | undefined): string | null {
  const costs = useQuery({ queryKey: queryKeys.vip.costs, queryFn: vipApi.pointCosts, staleTime: 5 * 60_000, retry: false });
  if (!iDataEventId) return null;
  return costs.data?.find((c) => c.feature === iDataEventId)?.name ?? iDataEventId;
}

/** Spec section 4: lacking points opens this prompt and refreshes the balance. */
export default function LackPointsModal() {
  const lack = useUserVipStore((s) => s.lackPoints);
  const balance = useUserVipStore((s) => (s.pointsKnown ? s.hwPoints : (lack.balance ?? null)));
  const refresh = useRefreshVip();
  const navigate = useNavigate();
  const feature = useFeatureName(lack.iDataEventId);

  useEffect(() => {
    if (lack.open) settle(refresh());
  }, [lack.open, refresh]);

  const close = () => useUserVipStore.getState().closeLackPoints();
  const go = (to: string) => {
    close();
    navigate(to);
  };
  const detail = lack.iDataEventId ? `/integralEmpty?eventId=${encodeURIComponent(lack.iDataEventId)}` : '/integralEmpty';

  return (
    <Modal open={lack.open} onCancel={close} footer={null} width={380} title="积分不足" destroyOnHidden>
      <div className="lack-points" data-testid="lack-points">
        <p>
          {feature ? <>「{feature}」</> : '该功能'}
          {lack.need ? `需要 ${lack.need} 积分` : '需要消耗积分'}，你的积分余额不足。
        </p>
        <p className="muted">
          当前余额：<strong data-testid="lack-points-balance">{balance ?? '—'}</strong> 积分
        </p>
        <div className="modal-actions">
          <Button onClick={() => go(detail)}>查看详情</Button>
          <Button type="primary" onClick={() => go('/integral')} data-testid="lack-points-buy">
            去购买
          </Button>
        </div>
      </div>
    </Modal>
  );
}
