import { useState } from 'react';
import { Button, Form } from 'antd';
import { authApi } from '../../api/auth';
import { LS, lsGet } from '../../lib/storage-keys';
import { storeSession } from '../session/session';
import { SmsFields } from './sms-fields';

export function PhoneLogin() {
  const [form] = Form.useForm<{ phone: string; code: string }>();
  const [busy, setBusy] = useState(false);
  const phone = Form.useWatch('phone', form);

  const submit = async (v: { phone: string; code: string }) => {
    setBusy(true);
    try {
      const channelId = lsGet(LS.channelId) ?? undefined;
      const invitationCode = lsGet(LS.pendingInvitationCode) ?? undefined;
      storeSession(await authApi.doLogin0({ phone: v.phone.trim(), code: v.code.trim(), channelId, invitationCode }));
    } catch {
      // Message shown by the request layer (wrong code, timeout...).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} autoComplete="off" data-testid="phone-login">
      <SmsFields phone={phone} />
      <Button type="primary" size="large" htmlType="submit" block loading={busy} data-testid="login-submit">
        登录 / 注册
      </Button>
    </Form>
  );
}
