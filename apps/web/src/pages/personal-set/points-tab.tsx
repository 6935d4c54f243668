import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { pointsFeatureLabels } from '@inkstone/shared';
import { vipApi } from '../../api/vip';
import { queryKeys } from '../../api/query-keys';
import { useUserVipStore } from '../../stores/user-vip';

/** Balance and VIP state at a glance, the prices of paid actions, and the ways to get more. */
export function PointsTab() {
  const { hwPoints, isVip, expiredTime, pointsKnown, allHwPointDic } = useUserVipStore();
  const costs = useQuery({ queryKey: queryKeys.vip.costs, queryFn: vipApi.pointCosts, retry: false, staleTime: 5 * 60_000 });
  return (
    <div data-testid="settings-points">
      <section className="settings-section">
        <div className="settings-row">
          <span className="label">积分余额</span>
          <strong data-testid="settings-balance">{pointsKnown ? hwPoints : '—'}</strong>
          <Link to="/integral">获取积分</Link>
        </div>
        <div className="settings-row">
          <span className="label">会员</span>
          <span>{isVip ? `会员有效期至 ${expiredTime?.slice(0, 10) ?? ''}` : '未开通会员'}</span>
          <Link to="/integral">{isVip ? '续费会员' : '开通会员'}</Link>
        </div>
        <div className="settings-row">
          <Link to="/mine">积分明细</Link>
          <Link to="/orderInfo">我的订单</Link>
          <Link to="/pointsRule">积分规则</Link>
        </div>
      </section>
      <section className="settings-section">
        <h2>积分消耗</h2>
        {(costs.data ?? []).map((c) => (
          <div className="settings-row" key={c.feature}>
            <span>{c.name || pointsFeatureLabels[c.feature as keyof typeof pointsFeatureLabels] || c.feature}</span>
            <span>{(allHwPointDic[c.feature] ?? c.point) > 0 ? `${allHwPointDic[c.feature] ?? c.point} 积分` : '免费'}</span>
          </div>
        ))}
      </section>
    </div>
  );
}
