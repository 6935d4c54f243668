import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi, type PointsBundle } from '../../api/vip';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';
import { toast } from '../../features/notifications/toasts';
import { useFeatureName } from '../../features/vip/lack-points-modal';
import { ListState } from '../../features/vip/list-state';
import { PayModal, type PayTarget } from '../../features/vip/pay-modal';
import { useRefreshVip } from '../../features/vip/vip-sync';
import { balanceVerdict, yuan } from '../../features/vip/format';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

/**
 * Where the lackPoints prompt's 查看详情 lands: balance, what was tried, and bundles to buy at once. Opened
 * directly (or after topping up) it judges the real balance instead of always saying 积分不足.
 */
export default function IntegralEmptyPage() {
  const [params] = useSearchParams();
  const isLogin = useIsLogin();
  const balance = useUserVipStore((s) => (s.pointsKnown ? s.hwPoints : null));
  const eventId = params.get('eventId');
  const feature = useFeatureName(eventId);
  const costs = useQuery({ queryKey: queryKeys.vip.costs, queryFn: vipApi.pointCosts, retry: false, staleTime: 5 * 60_000 });
  const need = eventId ? costs.data?.find((c) => c.feature === eventId)?.point : undefined;
  const maxCost = costs.data?.length ? Math.max(...costs.data.map((c) => c.point)) : undefined;
  // Until the prices are in, say nothing either way rather than flash a verdict.
  const verdict = costs.isPending ? 'unknown' : balanceVerdict(isLogin === true ? balance : null, need, maxCost);
  const heading = verdict === 'short' ? '积分不足' : '积分余额';
  const bundles = useQuery({ queryKey: queryKeys.vip.bundles, queryFn: vipApi.bundles, retry: false, staleTime: 60_000 });
  const [target, setTarget] = useState<PayTarget | null>(null);
  const refresh = useRefreshVip();
  const navigate = useNavigate();

  const buy = (t: PayTarget) => {
    if (isLogin !== true) return useGlobalStore.getState().openModal('login');
    setTarget(t);
  };

  return (
    <PageFrame testId="page-integralEmpty" title={heading}>
      <div className="vip-page">
        <Result
          status={verdict === 'enough' ? 'success' : verdict === 'short' ? 'warning' : 'info'}
          title={
            <span data-testid="integral-empty-verdict">
              {verdict === 'enough' ? (need ? '你的积分足够本次使用' : '你的积分充足') : verdict === 'short' ? '你的积分不足' : '积分余额'}
            </span>
          }
          subTitle={
            <>
              {feature ? (
                <div data-testid="integral-empty-feature">
                  你尝试使用「{feature}」{need ? `，需要 ${need} 积分` : ''}。
                </div>
              ) : null}
              <div>
                当前余额：<strong data-testid="integral-empty-balance">{isLogin === true ? (balance ?? '—') : '登录后查看'}</strong> 积分
              </div>
            </>
          }
          extra={[
            verdict === 'enough' ? (
              <Button key="back" type="primary" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))} data-testid="integral-empty-back">
                返回继续使用
              </Button>
            ) : null,
            <Button key="integral" type={verdict === 'enough' ? 'default' : 'primary'} onClick={() => navigate('/integral')} data-testid="integral-empty-buy">
              开通会员 / 购买积分
            </Button>,
            <Button key="rule" onClick={() => navigate('/pointsRule')}>
              查看积分规则
            </Button>,
          ]}
        />
        <section className="vip-section" data-testid="points-bundles">
          <h2>推荐积分包</h2>
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
                    <Button type="primary" block onClick={() => buy({ kind: 'bundle', id: b.id, name: b.name, price: b.price })}>
                      立即购买
                    </Button>
                  </div>
                ))}
              </div>
            )}
          </ListState>
        </section>
        <p className="muted">
          也可以在<Link to="/mine">我的</Link>页面领取每日奖励、邀请好友或使用兑换码获得积分。
        </p>
      </div>
      {target ? (
        <PayModal
          key={target.id}
          target={target}
          onClose={() => setTarget(null)}
          onPaid={(t) => {
            setTarget(null);
            toast.message('success', `支付成功，${t.name}积分已到账`, 3);
            settle(refresh());
          }}
        />
      ) : null}
    </PageFrame>
  );
}
