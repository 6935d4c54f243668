import { Link } from 'react-router';
import { Logo } from '../components/logo';
import { RouteOutlet } from './layout-parts';

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
      <RouteOutlet />
    </div>
  );
}
