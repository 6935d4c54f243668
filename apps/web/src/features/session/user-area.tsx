import { lazy, Suspense } from 'react';
import { Button } from 'antd';
import { useGlobalStore, useIsLogin } from '../../stores/global';

/**
 * The signed-in side (points, bell with its unread badge, avatar and menu) is loaded only for a signed-in session: a
 * visitor's first load does not carry Badge and Avatar.
 */
const SignedInArea = lazy(() => import('./user-area-signed-in'));

/** Header right side: bell with unread bubble, points and the user menu, or the login button. */
export function UserArea() {
  const isLogin = useIsLogin();
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
  return (
    <Suspense fallback={<div className="user-area" aria-busy="true" />}>
      <SignedInArea />
    </Suspense>
  );
}
