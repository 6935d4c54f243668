import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { FeedbackTab } from './feedback-drawer';
import { useGlobalStore, useIsLogin } from '../../stores/global';

// The drawer (form, upload, tabs, list) loads after first paint: it kept the home route's initial JS over budget.
const FeedbackDrawer = lazy(() => import('./feedback-drawer').then((m) => ({ default: m.FeedbackDrawer })));

/** The one global floating element (help and feedback); the agent page hides it (spec section 2). */
export function GlobalOverlay() {
  const { pathname } = useLocation();
  const isLogin = useIsLogin();
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<FeedbackTab>('new');

  // A feedbackReply notice links to `?feedback=mine`: open the user's feedback list, then tidy the address.
  const wanted = params.get('feedback');
  useEffect(() => {
    if (wanted !== 'mine' && wanted !== 'new') return;
    // Wait until the session check has answered, or the link is dropped before the user is known.
    if (typeof isLogin !== 'boolean') return;
    if (isLogin) {
      setTab(wanted);
      setOpen(true);
    } else useGlobalStore.getState().openModal('login');
    setParams(
      (p) => {
        p.delete('feedback');
        return p;
      },
      { replace: true },
    );
  }, [wanted, isLogin, setParams]);

  if (pathname === '/agent' || pathname.startsWith('/agent/')) return null;
  return (
    <>
      <button
        type="button"
        className="global-overlay"
        data-testid="global-overlay"
        onClick={() => {
          if (isLogin !== true) {
            useGlobalStore.getState().openModal('login');
            return;
          }
          setTab('new');
          setOpen(true);
        }}
      >
        帮助与反馈
      </button>
      {isLogin === true ? (
        <Suspense fallback={null}>
          <FeedbackDrawer open={open} tab={tab} onTab={setTab} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
