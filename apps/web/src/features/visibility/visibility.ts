import { limits } from '@inkstone/shared';
import { authApi } from '../../api/auth';
import { userApi } from '../../api/user';
import { LS, lsGet } from '../../lib/storage-keys';
import { useGlobalStore } from '../../stores/global';

/** Spec section 4: visibility changes re-check login and report open/close-software. */
export function startVisibilityTracking(): () => void {
  const onChange = () => {
    const visible = document.visibilityState === 'visible';
    const sid = lsGet(LS.duid) ?? '';
    void userApi.reportEvent(visible ? 'open-software' : 'close-software', sid, limits.eventVersion).catch(() => {});
    if (!lsGet(LS.tokenValue)) return;
    void authApi
      .isLogin()
      .then((ok) => {
        if (!ok && useGlobalStore.getState().modalVisibleMap.isLogin === true) useGlobalStore.getState().setLogin(false);
      })
      .catch(() => {});
  };
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}
