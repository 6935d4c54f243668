import { message } from 'antd';
import { MSG } from '../../api/error-policy';
import { useNetworkStore } from '../../stores/network';

const OFFLINE_KEY = 'network-offline';

/** Persistent until the network is back (spec section 4). */
export function markOffline(): void {
  if (useNetworkStore.getState().networkState === 'offline') return;
  useNetworkStore.getState().setNetworkState('offline');
  void message.open({ key: OFFLINE_KEY, type: 'error', content: MSG.offline, duration: 0 });
}

export function markOnline(): void {
  if (useNetworkStore.getState().networkState === 'online') return;
  useNetworkStore.getState().setNetworkState('online');
  message.destroy(OFFLINE_KEY);
}
