import { useState } from 'react';
import { Button, Modal, Popconfirm, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { ErrorCode, formatTimeAgo, type WxQrcode } from '@inkstone/shared';
import { authApi } from '../../api/auth';
import { isApiError } from '../../api/request';
import { applyProfile, authLost } from '../../features/session/session';
import { toast } from '../../features/notifications/toasts';
import { usePoll } from '../../features/polling/use-poll';
import { meKey } from './profile-tab';
import { settle } from '../../api/request';

const devicesKey = ['settings', 'devices'] as const;

/** A short name for a User-Agent: browser and system, or the raw string when neither is recognised. */
function clientName(ua: string | null): string {
  if (!ua) return '未知客户端';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : null;
  const os = /iPhone|iPad/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  return browser || os ? [browser, os].filter(Boolean).join(' · ') : ua.slice(0, 60);
}

/** Binding WeChat: the same QR scene and scan polling as WeChat login, then /auth/wx/bind with the scene. */
function WxBind(props: { onDone: () => void }) {
  const [qr, setQr] = useState<WxQrcode | null>(null);
  const [state, setState] = useState<'idle' | 'waiting' | 'expired'>('idle');
  const open = async () => {
    try {
      setQr(await authApi.wxQrcode());
      setState('waiting');
    } catch {
      // Shown by the request layer.
    }
  };
  usePoll(
    async () => {
      if (!qr) return;
      const s = await authApi.wxScanState(qr.scene).catch(() => null);
      if (!s) return;
      if (s.status === 'expired' || s.status === 'used') setState('expired');
      if (s.status !== 'scanned') return;
      setState('idle');
      try {
        await authApi.bindWx(qr.scene);
        toast.message('success', '微信已绑定', 2);
        setQr(null);
        props.onDone();
      } catch {
        // WX_ALREADY_BOUND and friends are shown by the request layer.
        setQr(null);
      }
    },
    2000,
    { enabled: state === 'waiting' && !!qr, restartOn: qr },
  );
  return (
    <>
      <Button onClick={() => settle(open())} data-testid="wx-bind-start">
        绑定微信
      </Button>
      <Modal open={qr !== null} title="绑定微信" onCancel={() => setQr(null)} footer={null} destroyOnHidden>
        <div className="wx-login" data-testid="wx-bind-qr">
          {qr ? <img src={qr.url} alt="微信绑定二维码" width={200} height={200} /> : null}
          <p className="muted">{state === 'expired' ? '二维码已过期，请关闭后重试' : '请使用要绑定的微信扫一扫'}</p>
          {qr?.sandbox ? (
            <p className="sandbox-hint">
              <Tag color="orange">沙箱</Tag>
              未接入真实微信，可
              <a href={`/api/dev/wx-sandbox/scan?scene=${encodeURIComponent(qr.scene)}`} target="_blank" rel="noreferrer">
                打开模拟扫码页
              </a>
              确认绑定。
            </p>
          ) : null}
        </div>
      </Modal>
    </>
  );
}

/** Bound phone, WeChat binding, and the login devices with sign-out of one or all. */
export function SecurityTab() {
  const qc = useQueryClient();
  const me = useQuery({ queryKey: meKey, queryFn: authApi.nowLoginUser });
  const devices = useQuery({ queryKey: devicesKey, queryFn: authApi.devices });

  const reloadMe = async () => {
    const user = await authApi.nowLoginUser();
    applyProfile(user);
    qc.setQueryData(meKey, user);
  };
  const unbind = async () => {
    try {
      const user = await authApi.unbindWx();
      applyProfile(user);
      qc.setQueryData(meKey, user);
      toast.message('success', '已解绑微信', 2);
    } catch {
      // Shown by the request layer.
    }
  };
  const revoke = async (id: number) => {
    try {
      await authApi.revokeDevice(id);
      toast.message('success', '已退出该设备', 2);
    } catch (e) {
      if (!(isApiError(e) && e.code === ErrorCode.NOT_FOUND)) return;
    }
    await qc.invalidateQueries({ queryKey: devicesKey });
  };
  const revokeAll = async () => {
    try {
      await authApi.logout('all');
    } catch {
      // The local session ends regardless.
    }
    authLost(false);
    toast.message('success', '已退出所有设备', 2);
  };

  return (
    <div data-testid="settings-security">
      <section className="settings-section">
        <h2>账号绑定</h2>
        <div className="settings-row">
          <span className="label">手机号</span>
          <span data-testid="bound-phone">{me.data?.phone ?? '未绑定'}</span>
        </div>
        <div className="settings-row">
          <span className="label">微信</span>
          <span data-testid="wx-state">{me.data?.wxBound ? '已绑定' : '未绑定'}</span>
          {me.data?.wxBound ? (
            <Popconfirm title="解绑后将不能再用该微信扫码登录，仍可用手机号登录。确定解绑？" okText="解绑" cancelText="取消" onConfirm={() => unbind()}>
              <Button danger data-testid="wx-unbind">
                解绑微信
              </Button>
            </Popconfirm>
          ) : (
            <WxBind onDone={() => settle(reloadMe())} />
          )}
        </div>
      </section>
      <section className="settings-section">
        <h2>登录设备</h2>
        <div data-testid="device-list">
          {(devices.data ?? []).map((d) => (
            <div className="device-item" key={d.id} data-testid="device-item">
              <div>
                <div className="client">
                  {clientName(d.client)} {d.current ? <Tag color="green">本机</Tag> : null}
                </div>
                <div className="muted">
                  IP {d.ip ?? '未知'} · 最近活跃 {formatTimeAgo(d.lastSeenAt)} · 登录于 {dayjs(d.createdAt).format('YYYY-MM-DD HH:mm')}
                </div>
              </div>
              {d.current ? null : (
                <Button size="small" onClick={() => settle(revoke(d.id))} data-testid="device-revoke">
                  退出登录
                </Button>
              )}
            </div>
          ))}
        </div>
        <Popconfirm title="所有设备（包括本机）都将退出登录，确定？" okText="全部退出" cancelText="取消" onConfirm={() => revokeAll()}>
          <Button danger style={{ marginTop: 12 }} data-testid="device-revoke-all">
            退出所有设备
          </Button>
        </Popconfirm>
      </section>
    </div>
  );
}
