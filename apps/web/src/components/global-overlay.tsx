import { useLocation } from 'react-router';
import { toast } from '../features/notifications/toasts';

/** The one global floating element (help and feedback); the agent page hides it (spec section 2). */
export function GlobalOverlay() {
  const { pathname } = useLocation();
  if (pathname === '/agent' || pathname.startsWith('/agent/')) return null;
  return (
    <button
      type="button"
      className="global-overlay"
      data-testid="global-overlay"
      onClick={() => toast.message('info', '意见反馈将在后续版本开放，欢迎通过邮件联系我们', 3)}
    >
      帮助与反馈
    </button>
  );
}
