import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/request';
import { publishApi, type ConnectionState } from '../../api/publish';
import { toast } from '../notifications/toasts';
import { usePoll } from '../polling/use-poll';
import { isTerminalConnection } from './format';
import type { PlatformInfo } from './platforms';
import { settle } from '../../api/request';

const POLL_MS = 2000;

export type BindPhase =
  | { kind: 'pick' }
  | { kind: 'connecting' }
  | { kind: 'qr'; connectionId: string; qrImage: string | null; scanUrl: string | null; state: ConnectionState }
  | { kind: 'finishing'; connectionId: string }
  | { kind: 'done'; accountName: string }
  | { kind: 'error'; text: string; connectionId: string | null };

const errorText = (e: unknown, fallback: string) => (isApiError(e) && e.message ? e.message : fallback);

/**
 * One binding attempt: open the platform's login on the server, show its QR and poll it (or, for a platform that
 * logs in with API credentials, finish at once), then read the login and bind the account. The server's login
 * page is released whenever the attempt is abandoned.
 */
export function useBindFlow(onBound: () => void) {
  const [phase, setPhase] = useState<BindPhase>({ kind: 'pick' });
  // One completion per connection, even if a slow poll reply lands after the next one.
  const finishing = useRef<string | null>(null);
  const liveConnection = useRef<string | null>(null);

  const releaseLive = useCallback(() => {
    const id = liveConnection.current;
    liveConnection.current = null;
    // Frees the server's login browser page; nothing to tell the user either way.
    if (id) void publishApi.release({ connectionId: id }).catch(() => {});
  }, []);

  useEffect(() => releaseLive, [releaseLive]);

  const reset = useCallback(() => {
    setPhase({ kind: 'pick' });
    finishing.current = null;
  }, []);

  const finish = useCallback(
    async (connectionId: string) => {
      if (finishing.current === connectionId) return;
      finishing.current = connectionId;
      setPhase({ kind: 'finishing', connectionId });
      try {
        await publishApi.complete(connectionId);
      } catch (e) {
        setPhase({ kind: 'error', text: errorText(e, '读取登录信息失败，请重新扫码'), connectionId });
        return;
      }
      try {
        const account = await publishApi.bind(connectionId);
        liveConnection.current = null;
        setPhase({ kind: 'done', accountName: account.accountName });
        toast.message('success', `已绑定账号「${account.accountName}」`, 3);
        onBound();
      } catch (e) {
        // Spec 8: the bind call itself shows nothing; the dialog says what happened.
        setPhase({ kind: 'error', text: `绑定失败：${errorText(e, '请重新扫码')}`, connectionId });
      }
    },
    [onBound],
  );

  const connectionId = phase.kind === 'qr' ? phase.connectionId : null;
  const qrState = phase.kind === 'qr' ? phase.state : null;
  usePoll(
    async (signal) => {
      if (!connectionId) return false;
      const c = await publishApi.connection(connectionId);
      if (signal.aborted) return false;
      if (c.state === 'confirmed' || c.state === 'completed') {
        settle(finish(connectionId));
        return false;
      }
      if (c.state === 'bound') {
        setPhase({ kind: 'done', accountName: c.accountName ?? '' });
        onBound();
        return false;
      }
      setPhase((p) => (p.kind === 'qr' && p.connectionId === connectionId ? { ...p, state: c.state } : p));
      if (c.state === 'failed') {
        setPhase({ kind: 'error', text: c.error ?? '登录失败，请重试', connectionId });
        return false;
      }
      return c.state !== 'expired';
    },
    POLL_MS,
    { enabled: connectionId !== null && qrState !== null && !isTerminalConnection(qrState), restartOn: connectionId },
  );

  /** Starts (or restarts) a login on `platform`; `creds` are the API keys of a credentials platform. */
  const start = async (platform: PlatformInfo, creds: { appId?: string; appSecret?: string } = {}) => {
    releaseLive();
    setPhase({ kind: 'connecting' });
    try {
      const c = await publishApi.connect({ platform: platform.platform, ...creds });
      liveConnection.current = c.connectionId;
      // No QR (credentials): the keys were the login; finish straight away.
      if (c.state === 'confirmed' || !c.qrImage) {
        settle(finish(c.connectionId));
        return;
      }
      // The sandbox platform has a simulated phone to scan with, opened from a link.
      let scanUrl: string | null = null;
      if (platform.sandbox)
        scanUrl = await publishApi.scan(c.connectionId).then(
          (s) => s.scanUrl,
          () => null,
        );
      setPhase({ kind: 'qr', connectionId: c.connectionId, qrImage: c.qrImage, scanUrl, state: c.state });
    } catch (e) {
      setPhase({ kind: 'error', text: errorText(e, '获取登录二维码失败'), connectionId: null });
    }
  };

  return { phase, setPhase, start, reset, releaseLive };
}
