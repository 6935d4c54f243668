import { useState } from 'react';
import { Button, Form, Input, Modal } from 'antd';
import { limits } from '@inkstone/shared';
import { userApi } from '../../api/user';
import { useGlobalStore } from '../../stores/global';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { applyProfile } from '../session/session';
import { toast } from '../notifications/toasts';

export default function ChangeNicknameModal() {
  const open = useGlobalStore((s) => s.modalVisibleMap.changeNickname);
  const nickname = usePersonalInfoStore((s) => s.nickname);
  const [busy, setBusy] = useState(false);
  const close = () => useGlobalStore.getState().closeModal('changeNickname');

  const submit = async (v: { nickname: string }) => {
    setBusy(true);
    try {
      applyProfile(await userApi.changeNickname(v.nickname.trim()));
      close();
      toast.message('success', '昵称已修改', 2);
    } catch {
      // Shown by the request layer; 401/430 open the login modal.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onCancel={close} footer={null} title="修改昵称" destroyOnHidden>
      <Form onFinish={submit} initialValues={{ nickname }} data-testid="change-nickname">
        <Form.Item name="nickname" rules={[{ required: true, message: '请输入昵称' }]}>
          <Input maxLength={limits.nicknameMaxLength} showCount aria-label="新昵称" />
        </Form.Item>
        <div className="modal-actions">
          <Button onClick={close}>取消</Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            保存
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
