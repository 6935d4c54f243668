import { Logo } from '../components/logo';
import { UserArea } from '../features/session/user-area';
import { NavLinks, RouteOutlet, type NavItem } from './layout-parts';

const agentNav: NavItem[] = [
  { to: '/', label: '工作台', end: true },
  { to: '/operationBoard', label: '运营看板' },
  { to: '/knowledge', label: '知识库' },
  { to: '/topic', label: '选题' },
  { to: '/dataAnalyse', label: '数据分析' },
  { to: '/accountManager', label: '账号管理' },
  { to: '/mine', label: '我的' },
];

/** Logged-in layout when the agent-state flag is on: side navigation around the agent workspace. */
export function AgentLayout() {
  return (
    <div className="layout layout-agent" data-testid="layout-agent">
      <aside className="sidebar">
        <Logo />
        <NavLinks items={agentNav} className="sidenav" />
      </aside>
      <div className="agent-main">
        <header className="topbar topbar-slim">
          <span className="agent-badge">智能体模式</span>
          <UserArea />
        </header>
        <RouteOutlet />
      </div>
    </div>
  );
}
