import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { installRequestUi } from '../api/request';
import { lackPointsFrom } from '../api/error-policy';
import { useUserVipStore } from '../stores/user-vip';
import { setNavigator } from '../lib/navigation';
import { bootSession, authLost } from './session/session';
import { usePolling } from './polling/polling';
import { startServiceWorker } from './service-worker/service-worker';
import { startVisibilityTracking } from './visibility/visibility';
import { holdFirstPage } from './notifications/comment-notifier';
import { toast } from './notifications/toasts';

installRequestUi({
  message: (level, text, durationS) => toast.message(level, text, durationS),
  notify: (title, description, durationS) => toast.notify(title, description, durationS),
  authLost,
  lackPoints: (data) => {
    const { iDataEventId, need, balance } = lackPointsFrom(data);
    useUserVipStore.getState().openLackPoints(iDataEventId, { need, balance });
  },
});

/** Cross-page behaviour that lives as long as the app: session, polling, worker, visibility. */
export function ShellEffects() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to, opts) => void navigate(to, { replace: opts?.replace }));
  }, [navigate]);
  useEffect(() => {
    void bootSession();
    const stops = [startServiceWorker(), startVisibilityTracking(), holdFirstPage()];
    return () => stops.forEach((s) => s());
  }, []);
  usePolling();
  return null;
}
