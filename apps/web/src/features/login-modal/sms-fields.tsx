import { useState } from 'react';
import { Button, Form, Input, Space, Tag } from 'antd';
import { authApi } from '../../api/auth';
import { toast } from '../notifications/toasts';
import { useCountdown } from './use-countdown';

export const PHONE_RULE = { pattern: /^1[3-9]\d{9}$/, message: '请输入11位中国大陆手机号' };
export const CODE_RULE = { pattern: /^\d{6}$/, message: '验证码为6位数字' };

/** Phone + SMS code fields with the 60 s resend countdown; shared by phone login and WeChat binding. */
export function SmsFields(props: { phone: string | undefined; disabled?: boolean }) {
  const [left, start] = useCountdown();
  const [sending, setSending] = useState(false);
  const [sandbox, setSandbox] = useState(false);
  const form = Form.useFormInstance();

  const send = async () => {
    try {
      await form.validateFields(['phone']);
    } catch {
      return;
    }
    setSending(true);
    try {
      const r = await authApi.sendMsg(String(form.getFieldValue('phone')).trim());
      start(r?.resendAfterSeconds && r.resendAfterSeconds > 0 ? r.resendAfterSeconds : 60);
      setSandbox(Boolean(r?.sandbox));
      toast.message('success', '验证码已发送', 2);
    } catch {
      // The request layer already said why.
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Form.Item name="phone" rules={[{ required: true, message: '请输入手机号' }, PHONE_RULE]}>
        <Input size="large" placeholder="手机号" maxLength={11} inputMode="numeric" autoComplete="tel" aria-label="手机号" disabled={props.disabled} />
      </Form.Item>
      <Form.Item>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }, CODE_RULE]}>
            <Input size="large" placeholder="验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" aria-label="验证码" />
          </Form.Item>
          <Button size="large" onClick={send} loading={sending} disabled={left > 0} data-testid="send-code">
            {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
          </Button>
        </Space.Compact>
      </Form.Item>
      {sandbox ? (
        <p className="sandbox-hint" data-testid="sms-sandbox">
          <Tag color="orange">沙箱</Tag>
          未配置短信服务商，验证码不会真正发出，请在
          <a href="/api/dev/sms-outbox/page" target="_blank" rel="noreferrer">
            短信发件箱
          </a>
          查看。
        </p>
      ) : null}
    </>
  );
}
