import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { installRequestUi } from '../api/request';
import { lackPointsFrom, sensitiveFrom } from '../api/error-policy';
import { useNetworkStore } from '../stores/network';
import { useGlobalStore } from '../stores/global';
import { useUserVipStore } from '../stores/user-vip';
import { setNavigator } from '../lib/navigation';
import { bootSession, authLost } from './session/session';
import { usePolling } from './polling/polling';
import { startServiceWorker } from './service-worker/service-worker';
import { startVisibilityTracking } from './visibility/visibility';
import { holdFirstPage } from './notifications/comment-notifier';
import { toast } from './notifications/toasts';
import { settle } from '../api/request';

installRequestUi({
  message: (level, text, durationS) => toast.message(level, text, durationS),
  notify: (title, description, durationS) => toast.notify(title, description, durationS),
  authLost,
  lackPoints: (data) => {
    const { iDataEventId, need, balance } = lackPointsFrom(data);
    useUserVipStore.getState().openLackPoints(iDataEventId, { need, balance });
  },
  sensitive: (data) => {
    const hit = sensitiveFrom(data);
    if (!hit) return;
    useNetworkStore
      .getState()
      .setSensitiveModalInfo({ type: hit.where, state: true, title: '描述词存在敏感内容', content: hit.words.join('、'), words: hit.words, suggestions: hit.suggestions });
    useGlobalStore.getState().openModal('sensitiveContent');
  },
});

/** Cross-page behaviour that lives as long as the app: session, polling, worker, visibility. */
export function ShellEffects() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to, opts) => {
      navigate(to, { replace: opts?.replace });
    });
  }, [navigate]);
  useEffect(() => {
    settle(bootSession());
    const stops = [startServiceWorker(), startVisibilityTracking(), holdFirstPage()];
    return () => stops.forEach((s) => s());
  }, []);
  usePolling();
  return null;
}
