import { Logo } from '../components/logo';
import { UserArea } from '../features/session/user-area';
import { NavLinks, RouteOutlet, type NavItem } from './layout-parts';

export const mainNav: NavItem[] = [
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
        <NavLinks items={mainNav} className="topnav" />
        <UserArea />
      </header>
      <RouteOutlet />
    </div>
  );
}
