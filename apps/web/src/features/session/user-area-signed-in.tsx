import { lazy, Suspense } from 'react';
import { Avatar, Badge } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useGlobalStore } from '../../stores/global';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { useUserVipStore } from '../../stores/user-vip';

const UserMenu = lazy(() => import('./user-menu'));

/** The header's right side for a signed-in session: points, the bell with its unread bubble, the user menu. */
export default function SignedInArea() {
  const unread = useGlobalStore((s) => s.unreadNoticeNum);
  const nickname = usePersonalInfoStore((s) => s.nickname);
  const points = useUserVipStore((s) => (s.pointsKnown ? s.hwPoints : null));
  const isVip = useUserVipStore((s) => s.isVip);
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
