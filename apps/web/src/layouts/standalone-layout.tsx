import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { Logo } from '../components/logo';
import { PageLoading } from '../components/page-frame';

/** Full-page tools (editor, agent, agreements...): no main navigation, a way back home. */
export function StandaloneLayout() {
  return (
    <div className="layout layout-standalone" data-testid="layout-standalone">
      <header className="topbar topbar-slim">
        <Logo />
        <Link to="/" className="back-home">
          返回首页
        </Link>
      </header>
      <main className="content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
