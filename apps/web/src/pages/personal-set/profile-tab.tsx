import { useState } from 'react';
import { Button, Checkbox, Form, Input, Radio, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { creationPlatforms, creatorTypes, limits, type FillInfoBody } from '@inkstone/shared';
import { authApi } from '../../api/auth';
import { userApi } from '../../api/user';
import { applyProfile } from '../../features/session/session';
import { toast } from '../../features/notifications/toasts';
import { creatorLabels, industryOptions, platformLabels } from '../../features/modals/profile-options';
import { AvatarCrop } from './avatar-crop';
import { nicknameProblem } from './nickname';
import { settle } from '../../api/request';

export const meKey = ['settings', 'me'] as const;

/** Avatar, nickname (the change-nickname rules) and the creator profile of onboarding. */
export function ProfileTab() {
  const qc = useQueryClient();
  const me = useQuery({ queryKey: meKey, queryFn: authApi.nowLoginUser });
  const [uploading, setUploading] = useState(false);
  const [savingName, setSavingName] = useState(false);
  const [savingInfo, setSavingInfo] = useState(false);

  const refresh = (user: Awaited<ReturnType<typeof authApi.nowLoginUser>>) => {
    applyProfile(user);
    qc.setQueryData(meKey, user);
  };

  const upload = async (png: Blob) => {
    setUploading(true);
    try {
      refresh(await userApi.uploadAvatar(png));
      toast.message('success', '头像已更新', 2);
    } catch {
      // The request layer showed the server's reason (type, size).
    } finally {
      setUploading(false);
    }
  };

  const saveName = async (v: { nickname: string }) => {
    setSavingName(true);
    try {
      refresh(await userApi.changeNickname(v.nickname.trim()));
      toast.message('success', '昵称已修改', 2);
    } catch {
      // Shown by the request layer.
    } finally {
      setSavingName(false);
    }
  };

  const saveInfo = async (v: {
    creatorType: FillInfoBody['creatorType'];
    industries?: string[];
    customIndustries?: string[];
    creationPlatform?: FillInfoBody['creationPlatform'];
  }) => {
    setSavingInfo(true);
    try {
      refresh(
        await userApi.fillInfo({
          creatorType: v.creatorType,
          industries: v.industries ?? [],
          customIndustries: v.customIndustries ?? [],
          creationPlatform: v.creationPlatform ?? [],
        }),
      );
      toast.message('success', '资料已保存', 2);
    } catch {
      // Shown by the request layer.
    } finally {
      setSavingInfo(false);
    }
  };

  if (!me.data) return <p className="muted">加载中…</p>;
  const u = me.data;
  return (
    <div data-testid="settings-profile">
      <section className="settings-section">
        <h2>头像</h2>
        <div className="settings-row">
          {u.avatar ? <img className="avatar-preview" src={u.avatar} alt="当前头像" data-testid="avatar-current" /> : <div className="avatar-preview" aria-label="默认头像" />}
          <AvatarCrop busy={uploading} onCropped={(png) => settle(upload(png))} />
        </div>
      </section>
      <section className="settings-section">
        <h2>昵称</h2>
        <Form layout="inline" initialValues={{ nickname: u.nickname }} onFinish={saveName} data-testid="settings-nickname">
          <Form.Item
            name="nickname"
            rules={[
              {
                validator: async (_, value: string) => {
                  const problem = nicknameProblem(value ?? '');
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            <Input maxLength={limits.nicknameMaxLength} showCount aria-label="昵称" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={savingName}>
            保存昵称
          </Button>
        </Form>
        <p className="muted">2-{limits.nicknameMaxLength}个字符，可用中文、字母、数字、下划线、连字符和间隔号。</p>
      </section>
      <section className="settings-section">
        <h2>创作者资料</h2>
        <Form
          layout="vertical"
          onFinish={saveInfo}
          data-testid="settings-creator"
          initialValues={{ creatorType: u.creatorType ?? undefined, industries: u.industries, customIndustries: u.customIndustries, creationPlatform: u.creationPlatform }}
        >
          <Form.Item name="creatorType" label="创作者类型" rules={[{ required: true, message: '请选择创作者类型' }]}>
            <Radio.Group options={creatorTypes.map((v) => ({ value: v, label: creatorLabels[v] }))} />
          </Form.Item>
          <Form.Item name="industries" label="所在行业（最多10个）">
            <Select mode="multiple" options={industryOptions} maxCount={10} placeholder="选择行业" aria-label="所在行业" />
          </Form.Item>
          <Form.Item name="customIndustries" label="自定义行业（最多5个）">
            <Select mode="tags" maxCount={5} placeholder="输入后回车" open={false} aria-label="自定义行业" />
          </Form.Item>
          <Form.Item name="creationPlatform" label="主要创作平台">
            <Checkbox.Group options={creationPlatforms.map((v) => ({ value: v, label: platformLabels[v] }))} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={savingInfo}>
            保存资料
          </Button>
        </Form>
      </section>
    </div>
  );
}
