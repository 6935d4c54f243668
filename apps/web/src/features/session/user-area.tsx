import { lazy, Suspense } from 'react';
import { Avatar, Badge, Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { useUserVipStore } from '../../stores/user-vip';

const UserMenu = lazy(() => import('./user-menu'));

/** Header right side: bell with unread bubble, points and the user menu, or the login button. */
export function UserArea() {
  const isLogin = useIsLogin();
  const unread = useGlobalStore((s) => s.unreadNoticeNum);
  const nickname = usePersonalInfoStore((s) => s.nickname);
  const points = useUserVipStore((s) => (s.pointsKnown ? s.hwPoints : null));
  const isVip = useUserVipStore((s) => s.isVip);

  if (isLogin === 'UNKNOWN') return <div className="user-area" data-testid="session-unknown" />;
  if (isLogin === false) {
    return (
      <div className="user-area">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')} data-testid="header-login">
          登录 / 注册
        </Button>
      </div>
    );
  }
  const userButton = (placeholder: boolean) => (
    // Until the menu code has loaded, the button is a disabled placeholder: a click then would open nothing.
    <button type="button" className="user-button" data-testid="user-menu" disabled={placeholder} aria-busy={placeholder || undefined}>
      <Avatar size="small">{nickname.slice(0, 1) || '砚'}</Avatar>
      <span data-testid="user-nickname">{nickname}</span>
      {isVip ? <span className="vip-tag">VIP</span> : null}
    </button>
  );
  return (
    <div className="user-area" data-testid="user-area">
      {points !== null ? (
        <Link to="/integral" className="points" data-testid="header-points">
          积分 {points}
        </Link>
      ) : null}
      <Link to="/notifications" aria-label="消息通知" data-testid="header-bell" className="bell">
        <Badge count={unread} size="small" overflowCount={99}>
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Link>
      <Suspense fallback={userButton(true)}>
        <UserMenu>{userButton(false)}</UserMenu>
      </Suspense>
    </div>
  );
}
