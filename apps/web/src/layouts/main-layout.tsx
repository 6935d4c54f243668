import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { Logo } from '../components/logo';
import { UserArea } from '../components/user-area';
import { PageLoading } from '../components/page-frame';

export const mainNav = [
  { to: '/', label: '首页', end: true },
  { to: '/knowledge', label: '知识库' },
  { to: '/topic', label: '选题' },
  { to: '/dataAnalyse', label: '数据分析' },
  { to: '/accountManager', label: '账号管理' },
  { to: '/mine', label: '我的' },
];

export function MainLayout() {
  return (
    <div className="layout layout-main" data-testid="layout-main">
      <header className="topbar">
        <Logo />
        <nav className="topnav" aria-label="主导航">
          {mainNav.map((n) => (
            <NavLink key={n.to} to={n.to} end={n.end}>
              {n.label}
            </NavLink>
          ))}
        </nav>
        <UserArea />
      </header>
      <main className="content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
