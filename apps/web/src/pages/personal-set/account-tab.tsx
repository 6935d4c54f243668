import { useState } from 'react';
import { Button, Checkbox, Form, Input, Space, Tag } from 'antd';
import { authApi } from '../../api/auth';
import { useCountdown } from '../../features/login-modal/use-countdown';
import { CODE_RULE } from '../../features/login-modal/sms-fields';
import { authLost } from '../../features/session/session';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { toast } from '../../features/notifications/toasts';
import { navigateTo } from '../../lib/navigation';
import { settle } from '../../api/request';

const consequences = [
  '账号资料（昵称、头像、创作者资料）将被清除，无法恢复',
  '剩余积分与会员权益作废，不予退还',
  '已绑定的手机号和微信将解除绑定，可重新注册新账号',
  '所有设备立即退出登录',
];

/** Deleting the account: the consequences, then an SMS code to the account's own phone. */
export function AccountTab() {
  const [left, start] = useCountdown();
  const [sending, setSending] = useState(false);
  const [sandbox, setSandbox] = useState(false);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      const r = await authApi.sendDeletionCode();
      start(r.resendAfterSeconds > 0 ? r.resendAfterSeconds : 60);
      setSandbox(r.sandbox);
      toast.message('success', '验证码已发送至绑定手机号', 2);
    } catch {
      // Shown by the request layer.
    } finally {
      setSending(false);
    }
  };

  const submit = async (v: { code: string }) => {
    setBusy(true);
    try {
      await authApi.deleteAccount(v.code.trim());
      authLost(false);
      usePersonalInfoStore.getState().clear();
      toast.message('success', '账号已注销', 3);
      navigateTo('/', { replace: true });
    } catch {
      // Wrong or expired code: shown by the request layer.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="settings-account">
      <section className="settings-section">
        <h2>注销账号</h2>
        <p>注销后：</p>
        <ul data-testid="delete-consequences">
          {consequences.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <Form onFinish={submit} data-testid="delete-account">
          <Form.Item>
            <Space.Compact style={{ width: '100%', maxWidth: 360 }}>
              <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }, CODE_RULE]}>
                <Input placeholder="短信验证码" maxLength={6} inputMode="numeric" aria-label="注销验证码" />
              </Form.Item>
              <Button onClick={() => settle(send())} loading={sending} disabled={left > 0} data-testid="delete-send-code">
                {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
              </Button>
            </Space.Compact>
          </Form.Item>
          {sandbox ? (
            <p className="sandbox-hint">
              <Tag color="orange">沙箱</Tag>
              未配置短信服务商，请在
              <a href="/api/dev/sms-outbox/page" target="_blank" rel="noreferrer">
                短信发件箱
              </a>
              查看验证码。
            </p>
          ) : null}
          <Form.Item name="agree" valuePropName="checked" rules={[{ validator: async (_, v) => (v ? undefined : Promise.reject(new Error('请确认已了解注销后果'))) }]}>
            <Checkbox>我已了解以上后果，确认注销</Checkbox>
          </Form.Item>
          <Button danger type="primary" htmlType="submit" loading={busy} data-testid="delete-submit">
            注销账号
          </Button>
        </Form>
      </section>
    </div>
  );
}
