import { Button, Form, Input, Modal } from 'antd';
import { LS, lsGet, lsSet } from '../../lib/storage-keys';
import { useGlobalStore } from '../../stores/global';
import { toast } from '../notifications/toasts';

/** The code is sent with the next login (doLogin0 / doLoginWx invitationCode). */
export default function InvitationCodeModal() {
  const open = useGlobalStore((s) => s.modalVisibleMap.invitationCode);
  const close = () => useGlobalStore.getState().closeModal('invitationCode');
  const submit = (v: { code: string }) => {
    lsSet(LS.pendingInvitationCode, v.code.trim());
    close();
    toast.message('success', '邀请码已填写，登录后生效', 2);
  };
  return (
    <Modal open={open} onCancel={close} footer={null} title="填写邀请码" destroyOnHidden>
      <Form onFinish={submit} initialValues={{ code: lsGet(LS.pendingInvitationCode) ?? '' }} data-testid="invitation-code">
        <Form.Item
          name="code"
          rules={[
            { required: true, whitespace: true, message: '请输入邀请码' },
            { max: 64, message: '邀请码过长' },
          ]}
        >
          <Input placeholder="好友分享给你的邀请码" aria-label="邀请码" />
        </Form.Item>
        <div className="modal-actions">
          <Button onClick={close}>取消</Button>
          <Button type="primary" htmlType="submit">
            确定
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
