import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Form, Spin, Tag } from 'antd';
import { ErrorCode } from '@inkstone/shared';
import { authApi, type WxQrcode } from '../../api/auth';
import { isApiError } from '../../api/request';
import { LS, lsGet } from '../../lib/storage-keys';
import { storeSession } from '../session/session';
import { SmsFields } from './sms-fields';
import { usePoll } from '../polling/use-poll';
import { settle } from '../../api/request';

type Phase = 'loading' | 'waiting' | 'scanned' | 'bind' | 'expired' | 'error';

export function WxLogin() {
  const [qr, setQr] = useState<WxQrcode | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ phone: string; code: string }>();
  const phone = Form.useWatch('phone', form);
  const handled = useRef<string | null>(null);

  const extra = () => ({
    channelId: lsGet(LS.channelId) ?? undefined,
    invitationCode: lsGet(LS.pendingInvitationCode) ?? undefined,
  });

  const load = useCallback(async () => {
    setPhase('loading');
    handled.current = null;
    try {
      setQr(await authApi.wxQrcode());
      setPhase('waiting');
    } catch {
      setPhase('error');
    }
  }, []);

  useEffect(() => {
    settle(load());
  }, [load]);

  const loginScanned = useCallback(async (scene: string) => {
    setPhase('scanned');
    try {
      storeSession(await authApi.doLoginWx({ scene, ...extra() }, [ErrorCode.WX_NOT_BOUND]));
    } catch (e) {
      if (isApiError(e) && e.code === ErrorCode.WX_NOT_BOUND) setPhase('bind');
      else if (isApiError(e) && e.code === ErrorCode.WX_SCENE_EXPIRED) setPhase('expired');
      else setPhase('error');
    }
  }, []);

  // Scan state every 2 s while the code is on screen.
  usePoll(
    async () => {
      if (!qr) return false;
      try {
        const s = await authApi.wxScanState(qr.scene);
        if (s.status === 'expired' || s.status === 'used') setPhase('expired');
        else if (s.status === 'scanned' && handled.current !== qr.scene) {
          handled.current = qr.scene;
          // loginScanned turns every failure into a phase itself.
          settle(loginScanned(qr.scene));
        }
      } catch (e) {
        if (isApiError(e) && e.code === ErrorCode.WX_SCENE_EXPIRED) setPhase('expired');
      }
    },
    2000,
    { enabled: phase === 'waiting' && !!qr, restartOn: qr },
  );

  const bind = async (v: { phone: string; code: string }) => {
    if (!qr) return;
    setBusy(true);
    try {
      storeSession(await authApi.doLoginWx({ scene: qr.scene, phone: v.phone.trim(), code: v.code.trim(), ...extra() }));
    } catch (e) {
      if (isApiError(e) && e.code === ErrorCode.WX_SCENE_EXPIRED) setPhase('expired');
    } finally {
      setBusy(false);
    }
  };

  if (phase === 'bind') {
    return (
      <Form form={form} onFinish={bind} data-testid="wx-bind">
        <p>该微信尚未绑定手机号，请验证手机号完成绑定并登录。</p>
        <SmsFields phone={phone} />
        <Button type="primary" size="large" htmlType="submit" block loading={busy}>
          绑定并登录
        </Button>
      </Form>
    );
  }

  return (
    <div className="wx-login" data-testid="wx-login">
      <div className="wx-qr">
        {phase === 'loading' ? <Spin /> : null}
        {qr && phase !== 'loading' && phase !== 'error' ? <img src={qr.url} alt="微信登录二维码" width={200} height={200} /> : null}
        {phase === 'expired' || phase === 'error' ? (
          <div className="wx-qr-mask">
            <p>{phase === 'expired' ? '二维码已过期' : '二维码加载失败'}</p>
            <Button type="primary" onClick={() => settle(load())} data-testid="wx-refresh">
              刷新
            </Button>
          </div>
        ) : null}
      </div>
      <p className="muted">{phase === 'scanned' ? '已扫码，正在登录…' : '请使用微信扫一扫登录'}</p>
      {qr?.sandbox ? (
        <p className="sandbox-hint">
          <Tag color="orange">沙箱</Tag>
          未接入真实微信，可
          <a href={`/api/dev/wx-sandbox/scan?scene=${encodeURIComponent(qr.scene)}`} target="_blank" rel="noreferrer">
            打开模拟扫码页
          </a>
          确认登录。
        </p>
      ) : null}
    </div>
  );
}
