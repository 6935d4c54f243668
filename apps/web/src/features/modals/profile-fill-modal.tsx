import { useState } from 'react';
import { Button, Checkbox, Form, Modal, Radio, Select } from 'antd';
import { creationPlatforms, creatorTypes, type FillInfoBody } from '@inkstone/shared';
import { userApi } from '../../api/user';
import { useGlobalStore } from '../../stores/global';
import { applyProfile, loadTracks } from '../session/session';
import { topicApi } from '../../api/topic';
import { useTrackStore } from '../../stores/track';
import { toast } from '../notifications/toasts';
import { creatorLabels, industryOptions, platformLabels } from './profile-options';

export default function ProfileFillModal() {
  const open = useGlobalStore((s) => s.modalVisibleMap.profileFill);
  const [busy, setBusy] = useState(false);
  const close = () => useGlobalStore.getState().closeModal('profileFill');
  // "稍后填写" (or the close button) is remembered per user on the server, so reloads do not ask again;
  // the user menu still opens the form on purpose.
  const dismiss = () => {
    close();
    void userApi.updateSetting('profilePromptDismissed', 'true').catch(() => {});
  };

  const submit = async (v: {
    creatorType: FillInfoBody['creatorType'];
    industries?: string[];
    customIndustries?: string[];
    creationPlatform?: FillInfoBody['creationPlatform'];
  }) => {
    setBusy(true);
    try {
      const user = await userApi.fillInfo({
        creatorType: v.creatorType,
        industries: v.industries ?? [],
        customIndustries: v.customIndustries ?? [],
        creationPlatform: v.creationPlatform ?? [],
      });
      applyProfile(user);
      // Onboarding picks the user's tracks too: industries that are system tracks (科技 -> 科技数码), the rest as own tracks.
      const systemNames = useTrackStore.getState().trackData.map((t) => t.name);
      const sysTrack = (v.industries ?? []).map((i) => systemNames.find((n) => n === i || n.startsWith(i))).filter((n): n is string => !!n);
      const userTrack = [...(v.industries ?? []).filter((i) => !systemNames.some((n) => n === i || n.startsWith(i))), ...(v.customIndustries ?? [])];
      await topicApi.saveTracks({ sysTrack: [...new Set(sysTrack)], userTrack: [...new Set(userTrack)].slice(0, 10) }).then(loadTracks, () => {});
      close();
      toast.message('success', '资料已保存', 2);
    } catch {
      // Shown by the request layer.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onCancel={dismiss} footer={null} title="完善创作者资料" destroyOnHidden>
      <Form layout="vertical" onFinish={submit} data-testid="profile-fill">
        <p className="muted">告诉我们你的创作方向，AI 会写得更贴合你。</p>
        <Form.Item name="creatorType" label="创作者类型" rules={[{ required: true, message: '请选择创作者类型' }]}>
          <Radio.Group options={creatorTypes.map((v) => ({ value: v, label: creatorLabels[v] }))} />
        </Form.Item>
        <Form.Item name="industries" label="所在行业（最多10个）">
          <Select mode="multiple" options={industryOptions} maxCount={10} placeholder="选择行业" />
        </Form.Item>
        <Form.Item name="customIndustries" label="自定义行业（最多5个）">
          <Select mode="tags" maxCount={5} placeholder="输入后回车" open={false} />
        </Form.Item>
        <Form.Item name="creationPlatform" label="主要创作平台">
          <Checkbox.Group options={creationPlatforms.map((v) => ({ value: v, label: platformLabels[v] }))} />
        </Form.Item>
        <div className="modal-actions">
          <Button onClick={dismiss} data-testid="profile-fill-later">
            稍后填写
          </Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            保存
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
