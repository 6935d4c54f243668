import { useEffect, useState, type ReactNode } from 'react';
import { Button, Tag } from 'antd';
import { Link } from 'react-router';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';
import { chinaDay, vipRemainingText } from '@inkstone/shared';

/** VIP state and balance from the user-vip store: refreshed in place after payments and claims. */
export function VipSummary(props: { extra?: ReactNode }) {
  const isLogin = useIsLogin();
  const { isVip, expiredTime, hwPoints, pointsKnown } = useUserVipStore();
  // Day-granular label, counted in Shanghai calendar days (one rule for every page); a minute tick carries it over midnight.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(id);
  }, []);
  if (isLogin !== true) {
    return (
      <div className="vip-summary" data-testid="vip-summary">
        <div className="vip-summary-item">
          <span className="muted">登录后查看会员状态与积分余额</span>
        </div>
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')} data-testid="vip-login">
          登录 / 注册
        </Button>
      </div>
    );
  }
  const left = isVip ? vipRemainingText(expiredTime, now) : null;
  return (
    <div className="vip-summary" data-testid="vip-summary">
      <div className="vip-summary-item">
        <span className="muted">会员状态</span>
        <span className="vip-summary-value" data-testid="vip-status">
          {isVip ? (
            <>
              <Tag color="gold">VIP</Tag>会员有效
            </>
          ) : (
            '普通用户'
          )}
        </span>
        {isVip && expiredTime ? (
          <span className="muted" data-testid="vip-expiry">
            有效期至 {chinaDay(expiredTime)}
            {left ? `（${left}）` : ''}
          </span>
        ) : null}
      </div>
      <div className="vip-summary-item">
        <span className="muted">积分余额</span>
        <span className="vip-summary-value" data-testid="points-balance">
          {pointsKnown ? hwPoints : '—'}
        </span>
        <Link to="/pointsRule" className="muted">
          积分规则
        </Link>
      </div>
      {props.extra}
    </div>
  );
}
