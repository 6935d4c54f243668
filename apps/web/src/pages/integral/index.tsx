import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { Link } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi, type PointsBundle, type VipPlan } from '../../api/vip';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';
import { toast } from '../../features/notifications/toasts';
import { PayModal, type PayTarget } from '../../features/vip/pay-modal';
import { VipSummary } from '../../features/vip/vip-summary';
import { ListState } from '../../features/vip/list-state';
import { useRefreshVip } from '../../features/vip/vip-sync';
import { planButtonLabel, yuan } from '../../features/vip/format';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

export default function IntegralPage() {
  const isLogin = useIsLogin();
  const openPayment = useUserVipStore((s) => s.openPayment);
  const isVip = useUserVipStore((s) => s.isVip);
  const [target, setTarget] = useState<PayTarget | null>(null);
  const refresh = useRefreshVip();
  const plans = useQuery({ queryKey: queryKeys.vip.plans, queryFn: vipApi.plans, retry: false, staleTime: 60_000 });
  const bundles = useQuery({ queryKey: queryKeys.vip.bundles, queryFn: vipApi.bundles, retry: false, staleTime: 60_000 });
  // Logged out the store knows nothing yet: let the user pick, login comes first anyway.
  const payable = isLogin !== true || openPayment;

  const buy = (t: PayTarget) => {
    if (isLogin !== true) {
      useGlobalStore.getState().openModal('login');
      return;
    }
    setTarget(t);
  };
  const onPaid = (t: PayTarget) => {
    setTarget(null);
    toast.message('success', t.kind === 'vip' ? `支付成功，${t.name}已开通` : `支付成功，${t.name}积分已到账`, 3);
    settle(refresh());
  };

  const buyButton = (t: PayTarget, testId: string) => (
    <Button type="primary" block disabled={!payable} onClick={() => buy(t)} data-testid={testId}>
      {t.kind === 'vip' ? planButtonLabel(isLogin === true && isVip) : '立即购买'}
    </Button>
  );

  return (
    <PageFrame
      testId="page-integral"
      title="会员与积分"
      extra={
        <Link to="/orderInfo" data-testid="integral-orders">
          我的订单
        </Link>
      }
    >
      <div className="vip-page">
        <VipSummary />
        {!payable ? <Alert type="info" showIcon className="vip-section" title="在线支付暂未开放" description="你仍可以通过兑换码、每日奖励和邀请好友获得积分。" /> : null}

        <section className="vip-section" data-testid="vip-plans">
          <h2>{isLogin === true && isVip ? '续费会员' : '开通会员'}</h2>
          <ListState<VipPlan> query={plans} testId="plans" what="会员套餐" emptyText="暂无在售会员套餐">
            {(items) => (
              <div className="vip-grid">
                {items.map((p, i) => (
                  <div key={p.id} className={i === items.length - 1 ? 'vip-card featured' : 'vip-card'} data-testid="plan-card">
                    <div className="vip-card-name">{p.name}</div>
                    <div className="vip-card-price">
                      {yuan(p.price)}
                      <small>/ {p.durationDays}天</small>
                    </div>
                    <ul>
                      {p.points > 0 && !p.perks.some((x) => x.includes('积分')) ? <li>赠送 {p.points} 积分</li> : null}
                      {p.perks.map((perk) => (
                        <li key={perk}>{perk}</li>
                      ))}
                    </ul>
                    {buyButton({ kind: 'vip', id: p.id, name: p.name, price: p.price }, `buy-plan-${p.id}`)}
                  </div>
                ))}
              </div>
            )}
          </ListState>
        </section>

        <section className="vip-section" data-testid="points-bundles">
          <h2>购买积分包</h2>
          <ListState<PointsBundle> query={bundles} testId="bundles" what="积分包" emptyText="暂无在售积分包">
            {(items) => (
              <div className="vip-grid">
                {items.map((b) => (
                  <div key={b.id} className="vip-card" data-testid="bundle-card">
                    <div className="vip-card-name">{b.name}</div>
                    <div className="vip-card-price">
                      {yuan(b.price)}
                      <small>{b.points} 积分</small>
                    </div>
                    <ul>
                      <li>约 {(b.price / 100 / Math.max(1, b.points)).toFixed(3)} 元/积分</li>
                      <li>可用于 AI 写作、配图等功能</li>
                    </ul>
                    {buyButton({ kind: 'bundle', id: b.id, name: b.name, price: b.price }, `buy-bundle-${b.id}`)}
                  </div>
                ))}
              </div>
            )}
          </ListState>
        </section>

        <p className="muted">
          购买即表示你已阅读并同意<Link to="/purchaseAgreement">《会员服务协议》</Link>。积分用途见
          <Link to="/pointsRule">积分规则</Link>。
        </p>
      </div>
      {target ? <PayModal key={`${target.kind}:${target.id}`} target={target} onClose={() => setTarget(null)} onPaid={onPaid} /> : null}
    </PageFrame>
  );
}
