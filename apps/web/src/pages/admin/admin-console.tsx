import { Suspense } from 'react';
import { App as AntApp, Layout, Menu, Spin, Tag } from 'antd';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import type { AdminMe } from '../../api/admin';
import { ReauthProvider } from './reauth';
import { ROLE_LABEL } from './format';
import './admin.css';

// Static imports: the whole console is this one lazily loaded chunk (admin-console-*.js), requested by the gate only
// once /api/admin/me grants a role.
import Dashboard from './dashboard-page';
import Users from './users-page';
import Orders from './orders-page';
import Catalogue from './catalogue-page';
import Codes from './codes-page';
import Notices from './notices-page';
import Models from './models-page';
import PlatformHealth from './platform-health-page';
import Audit from './audit-page';

/** The side menu, in the order; the key is the path under /admin. */
const MENU = [
  { key: 'dashboard', label: '仪表盘' },
  { key: 'users', label: '用户' },
  { key: 'orders', label: '订单' },
  { key: 'catalogue', label: '商品与价格' },
  { key: 'codes', label: '兑换码' },
  { key: 'notices', label: '通知' },
  { key: 'models', label: '模型与来源' },
  { key: 'platform-health', label: '平台健康' },
  { key: 'audit', label: '审计日志' },
] as const;

export default function AdminConsole({ me }: { me: AdminMe }) {
  const { pathname } = useLocation();
  const current = /^\/admin\/([^/]+)/.exec(pathname)?.[1] ?? 'dashboard';
  return (
    <AntApp>
      <ReauthProvider>
        <Layout className="admin-console" data-testid="admin-console">
          <Layout.Sider width={200} breakpoint="lg" collapsedWidth={0} theme="dark">
            <div className="admin-brand">
              <span className="logo-mark">砚</span> 运营后台
            </div>
            <Menu
              theme="dark"
              mode="inline"
              selectedKeys={[current]}
              data-testid="admin-menu"
              items={MENU.map((m) => ({ key: m.key, label: <Link to={`/admin/${m.key}`}>{m.label}</Link> }))}
            />
          </Layout.Sider>
          <Layout>
            <Layout.Header className="admin-header">
              <span>{MENU.find((m) => m.key === current)?.label ?? ''}</span>
              <span className="admin-header-right">
                <Tag color="geekblue" data-testid="admin-role">
                  {ROLE_LABEL[me.role]}
                </Tag>
                <Link to="/">返回前台</Link>
              </span>
            </Layout.Header>
            <Layout.Content className="admin-content">
              <Suspense fallback={<Spin />}>
                <Routes>
                  <Route index element={<Navigate to="dashboard" replace />} />
                  <Route path="dashboard" element={<Dashboard me={me} />} />
                  <Route path="users/:userId?" element={<Users me={me} />} />
                  <Route path="orders/:orderNo?" element={<Orders me={me} />} />
                  <Route path="catalogue" element={<Catalogue me={me} />} />
                  <Route path="codes" element={<Codes me={me} />} />
                  <Route path="notices" element={<Notices me={me} />} />
                  <Route path="models" element={<Models me={me} />} />
                  <Route path="platform-health" element={<PlatformHealth me={me} />} />
                  <Route path="audit" element={<Audit />} />
                  <Route path="*" element={<Navigate to="dashboard" replace />} />
                </Routes>
              </Suspense>
            </Layout.Content>
          </Layout>
        </Layout>
      </ReauthProvider>
    </AntApp>
  );
}
