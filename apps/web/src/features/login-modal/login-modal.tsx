import { Modal, Tabs } from 'antd';
import { useGlobalStore } from '../../stores/global';
import { PhoneLogin } from './phone-login';
import { WxLogin } from './wx-login';

export default function LoginModal() {
  const open = useGlobalStore((s) => s.modalVisibleMap.login);
  const close = () => useGlobalStore.getState().closeModal('login');
  return (
    <Modal open={open} onCancel={close} footer={null} width={420} destroyOnHidden title="登录砚">
      <div data-testid="login-modal">
        <Tabs
          items={[
            { key: 'phone', label: '手机号登录', children: <PhoneLogin /> },
            { key: 'wx', label: '微信扫码登录', children: <WxLogin /> },
          ]}
          destroyOnHidden
        />
        <p className="login-foot muted">
          未注册的手机号验证后自动创建账号。
          <a onClick={() => useGlobalStore.getState().openModal('invitationCode')} role="button">
            填写邀请码
          </a>
        </p>
      </div>
    </Modal>
  );
}
