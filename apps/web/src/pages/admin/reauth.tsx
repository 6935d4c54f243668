import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { ErrorCode, type AdminMe } from '@inkstone/shared';
import { api } from '../../api/client';
import { isApiError } from '../../api/request';
import { useCountdown } from '../../features/login-modal/use-countdown';

/**
 * Recent verification. The server answers ADMIN_REAUTH_REQUIRED when the console session is idle or old; the call
 * then waits here while the operator enters an SMS code sent to their own phone, and is made once more after it.
 * Calls failing together share one prompt; closing the prompt fails them with the server's message.
 */
interface ReauthState {
  open: boolean;
  waiters: Array<(ok: boolean) => void>;
}
const useReauthStore = create<ReauthState>()(() => ({ open: false, waiters: [] }));

function verified(ok: boolean) {
  const { waiters } = useReauthStore.getState();
  useReauthStore.setState({ open: false, waiters: [] });
  for (const w of waiters) w(ok);
}

export async function withReauth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (!isApiError(e) || e.code !== ErrorCode.ADMIN_REAUTH_REQUIRED) throw e;
    const ok = await new Promise<boolean>((resolve) => useReauthStore.setState((s) => ({ open: true, waiters: [...s.waiters, resolve] })));
    if (!ok) throw e;
    return call();
  }
}

function ReauthModal() {
  const open = useReauthStore((s) => s.open);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ code: string }>();
  const [left, start] = useCountdown();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setError(null);
    try {
      const r = await api.post('/admin/reauth/send', undefined, { silent: true });
      start(r.resendAfterSeconds);
      setSentTo(queryClient.getQueryData<AdminMe>(['admin', 'me'])?.phone ?? null);
    } catch (e) {
      setError(e instanceof Error ? e.message : '发送失败');
    }
  };

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    setError(null);
    try {
      const me = await api.post('/admin/reauth', { code }, { silent: true });
      queryClient.setQueryData(['admin', 'me'], me);
      form.resetFields();
      verified(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : '验证失败');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="需要重新验证"
      data-testid="admin-reauth"
      okText="验证"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={() => verified(false)}
      destroyOnHidden
    >
      <p>管理后台会话已闲置，继续操作前请输入发送到本人手机的短信验证码。</p>
      <Form form={form} onFinish={(v) => void submit(v)} layout="vertical">
        <Form.Item label="短信验证码" required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle rules={[{ required: true, pattern: /^\d{6}$/, message: '验证码为6位数字' }]}>
              <Input inputMode="numeric" maxLength={6} placeholder="6位验证码" aria-label="短信验证码" />
            </Form.Item>
            <Button data-testid="admin-reauth-send" disabled={left > 0} onClick={() => void send()}>
              {left > 0 ? `${left}秒后重发` : '发送验证码'}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
      {sentTo ? <div className="muted">验证码已发送至 {sentTo}</div> : null}
      {error ? <Alert type="error" showIcon title={error} data-testid="admin-reauth-error" /> : null}
    </Modal>
  );
}

export function ReauthProvider({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ReauthModal />
    </>
  );
}
