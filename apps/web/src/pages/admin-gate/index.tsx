import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { Link } from 'react-router';
import { adminMe } from '../../api/admin';
import { isApiError } from '../../api/request';
import { useGlobalStore, useIsLogin } from '../../stores/global';

/**
 * The console is requested only once the server has said this user holds a role: a normal user (or a visitor) who
 * opens /admin downloads this gate and nothing of the console.
 */
const AdminConsole = lazy(() => import('../admin/admin-console'));

export default function AdminGate() {
  const isLogin = useIsLogin();
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: adminMe, enabled: isLogin === true, retry: false, staleTime: 60_000 });

  if (isLogin !== true) {
    return (
      <Result
        data-testid="admin-login"
        status="403"
        title="管理后台"
        subTitle="请先登录有管理权限的账号"
        extra={
          <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
            登录
          </Button>
        }
      />
    );
  }
  if (me.isPending) return <Spin fullscreen data-testid="admin-checking" />;
  if (me.isError) {
    const refused = isApiError(me.error) && me.error.kind === 'code';
    return (
      <Result
        data-testid="admin-refused"
        status={refused ? '403' : 'error'}
        title={refused ? '无权访问' : '加载失败'}
        subTitle={me.error instanceof Error ? me.error.message : '请稍后再试'}
        extra={<Link to="/">返回首页</Link>}
      />
    );
  }
  return (
    <Suspense fallback={<Spin fullscreen />}>
      <AdminConsole me={me.data} />
    </Suspense>
  );
}
