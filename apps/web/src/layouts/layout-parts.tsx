import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { PageLoading } from '../components/page-frame';

export interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

export function NavLinks(props: { items: NavItem[]; className: string }) {
  return (
    <nav className={props.className} aria-label="主导航">
      {props.items.map((n) => (
        <NavLink key={n.to} to={n.to} end={n.end}>
          {n.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The routed page, with the loading state while its lazy chunk arrives. */
export function RouteOutlet() {
  return (
    <main className="content">
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
