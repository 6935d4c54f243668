import { Button, Checkbox, Descriptions, Form, Modal, Radio, Steps } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { creationPlatforms, creatorTypes, limits, type FillInfoBody } from '@inkstone/shared';
import { useGlobalStore, type ModalName } from '../../stores/global';
import { useNetworkStore } from '../../stores/network';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { authApi } from '../../api/auth';
import { userApi } from '../../api/user';
import { vipApi } from '../../api/vip';
import { queryKeys } from '../../api/query-keys';
import { applyProfile } from '../session/session';
import { toast } from '../notifications/toasts';
import { creatorLabels, platformLabels } from './profile-options';
import { markReleaseSeen, useRelease } from './release';

const closer = (name: ModalName) => () => useGlobalStore.getState().closeModal(name);
const useOpen = (name: ModalName) => useGlobalStore((s) => s.modalVisibleMap[name]);

/** 新手引导: the four steps from an idea to a published article. */
export function NewbieGuideModal() {
  const open = useOpen('newbieGuide');
  const [step, setStep] = useState(0);
  const steps = [
    { title: '输入主题', description: '在首页输入主题或素材，选择文章或图文、写作模式与写作能力（文体）。' },
    { title: 'AI 写作', description: '点击“开始写作”，AI 生成初稿；按钮旁会显示本次消耗的积分。' },
    { title: '编辑润色', description: '在编辑器中修改，选中文字可续写、扩写、润色，或生成标题。' },
    { title: '一键发布', description: '在“账号管理”绑定平台账号后，把文章发布到小红书、公众号等平台。' },
  ];
  const close = closer('newbieGuide');
  return (
    <Modal open={open} title="新手引导" onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-newbieGuide">
        <Steps direction="vertical" size="small" current={step} items={steps} />
        <div className="modal-actions">
          {step > 0 ? <Button onClick={() => setStep(step - 1)}>上一步</Button> : null}
          {step < steps.length - 1 ? (
            <Button type="primary" onClick={() => setStep(step + 1)}>
              下一步
            </Button>
          ) : (
            <Button type="primary" onClick={close}>
              开始创作
            </Button>
          )}
        </div>
      </div>
    </Modal>
  );
}

/** 更新说明: the server's current version and notes; closing marks this version seen on this device. */
export function ReleaseNoteModal() {
  const open = useOpen('releaseNote');
  const release = useRelease();
  const close = () => {
    if (release.data) markReleaseSeen(release.data.version);
    useGlobalStore.getState().closeModal('releaseNote');
  };
  return (
    <Modal open={open} title="更新说明" onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-releaseNote">
        {release.data ? (
          <>
            <p>
              <strong>版本 {release.data.version}</strong> <span className="muted">{release.data.date}</span>
            </p>
            <ul>
              {release.data.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
            <p className="muted" data-testid="release-client-version">
              当前客户端版本 {release.data.clientVersion ?? limits.appVersion}
            </p>
          </>
        ) : (
          <p className="muted">{release.isError ? '更新说明加载失败' : '加载中…'}</p>
        )}
        <div className="modal-actions">
          <Button type="primary" onClick={close}>
            知道了
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** 账号信息: who is logged in, their codes and this app's version. */
export function InformationModal() {
  const open = useOpen('information');
  const me = useQuery({ queryKey: ['settings', 'me'], queryFn: authApi.nowLoginUser, enabled: open });
  const close = closer('information');
  return (
    <Modal open={open} title="账号信息" onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-information">
        {me.data ? (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="昵称">{me.data.nickname}</Descriptions.Item>
            <Descriptions.Item label="用户 ID">{me.data.uid}</Descriptions.Item>
            <Descriptions.Item label="手机号">{me.data.phone ?? '未绑定'}</Descriptions.Item>
            <Descriptions.Item label="微信">{me.data.wxBound ? '已绑定' : '未绑定'}</Descriptions.Item>
            <Descriptions.Item label="邀请码">{me.data.inviteCode}</Descriptions.Item>
            <Descriptions.Item label="注册时间">{dayjs(me.data.createdAt).format('YYYY-MM-DD')}</Descriptions.Item>
            <Descriptions.Item label="客户端版本">{limits.appVersion}</Descriptions.Item>
          </Descriptions>
        ) : (
          <p className="muted">加载中…</p>
        )}
        <div className="modal-actions">
          <Link to="/personalSet/profile" onClick={close}>
            去个人设置
          </Link>
        </div>
      </div>
    </Modal>
  );
}

/** 活动: the current rewards from the activity configuration, and the way to the activity page. */
export function ActivityModal() {
  const open = useOpen('activity');
  const config = useQuery({ queryKey: queryKeys.vip.activityConfig, queryFn: vipApi.activityConfig, enabled: open, retry: false });
  const close = closer('activity');
  return (
    <Modal open={open} title="活动" onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-activity">
        {config.data ? (
          <ul>
            <li>每日登录奖励 {config.data.dailyReward} 积分</li>
            <li>
              离开 {config.data.returnAfterDays} 天后回归奖励 {config.data.returnReward} 积分
            </li>
            <li>
              邀请好友：你得 {config.data.invite.inviterReward} 积分，好友得 {config.data.invite.inviteeReward} 积分
            </li>
          </ul>
        ) : (
          <p className="muted">{config.isError ? '活动信息加载失败' : '加载中…'}</p>
        )}
        <div className="modal-actions">
          <Link to="/activity" onClick={close}>
            查看活动页
          </Link>
        </div>
      </div>
    </Modal>
  );
}

/** 下载客户端: only when the server names a download page (APP_DOWNLOAD_URL). */
export function DownloadModal() {
  const open = useOpen('download');
  const release = useRelease();
  const close = closer('download');
  const url = release.data?.downloadUrl;
  return (
    <Modal open={open && !!url} title="下载客户端" onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-download">
        <p>在电脑或手机上安装砚客户端，随时创作与发布。</p>
        {url ? (
          <a href={url} target="_blank" rel="noreferrer" data-testid="download-link">
            前往下载页
          </a>
        ) : null}
      </div>
    </Modal>
  );
}

/** 功能指引: where each feature lives. */
export function GuideModal() {
  const open = useOpen('guide');
  const close = closer('guide');
  const items: [string, string, string][] = [
    ['/', 'AI 写作', '输入主题，生成文章或小红书图文'],
    ['/topic', '热点选题', '追踪行业热点，一键写成文章'],
    ['/knowledge', '知识库', '上传资料，写作时引用'],
    ['/accountManager', '账号管理', '绑定平台账号与人设'],
    ['/dataAnalyse', '数据分析', '查看已发布内容的数据'],
    ['/personalSet/profile', '个人设置', '资料、通知、账号安全'],
  ];
  return (
    <Modal open={open} title="功能指引" onCancel={close} footer={null} destroyOnHidden>
      <ul data-testid="modal-guide" className="guide-list">
        {items.map(([to, name, desc]) => (
          <li key={to}>
            <Link to={to} onClick={close}>
              {name}
            </Link>
            <span className="muted"> · {desc}</span>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** 选择平台: the platforms the user creates for, saved with the creator profile (/user/fill/info). */
export function PlatformModal() {
  const open = useOpen('platform');
  const info = usePersonalInfoStore();
  const [busy, setBusy] = useState(false);
  const close = closer('platform');
  const submit = async (v: { creatorType: FillInfoBody['creatorType']; creationPlatform?: FillInfoBody['creationPlatform'] }) => {
    setBusy(true);
    try {
      const user = await userApi.fillInfo({
        creatorType: v.creatorType,
        industries: info.industries,
        customIndustries: info.customIndustries,
        creationPlatform: v.creationPlatform ?? [],
      });
      applyProfile(user);
      usePersonalInfoStore.getState().setInfo({ platform: v.creationPlatform?.[0] ?? null });
      toast.message('success', '创作平台已保存', 2);
      close();
    } catch {
      // Shown by the request layer.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title="选择创作平台" onCancel={close} footer={null} destroyOnHidden>
      <Form
        layout="vertical"
        onFinish={submit}
        data-testid="modal-platform"
        initialValues={{ creatorType: info.creatorType ?? 'personal', creationPlatform: info.userPlatforms.filter((p) => (creationPlatforms as readonly string[]).includes(p)) }}
      >
        <Form.Item name="creationPlatform" label="你主要在哪些平台创作？" rules={[{ required: true, message: '请至少选择一个平台' }]}>
          <Checkbox.Group options={creationPlatforms.map((v) => ({ value: v, label: platformLabels[v] }))} />
        </Form.Item>
        <Form.Item name="creatorType" label="创作者类型">
          <Radio.Group options={creatorTypes.map((v) => ({ value: v, label: creatorLabels[v] }))} />
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

/** 敏感内容 (933): which words, where, and what to change. */
export function SensitiveContentModal() {
  const open = useOpen('sensitiveContent');
  const info = useNetworkStore((s) => s.sensitiveModalInfo);
  const close = () => {
    useNetworkStore.getState().setSensitiveModalInfo({ state: false });
    useGlobalStore.getState().closeModal('sensitiveContent');
  };
  return (
    <Modal open={open && info.state} title={info.title || '描述词存在敏感内容'} onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="modal-sensitiveContent">
        <p>{info.type ? `${info.type}中` : '内容中'}包含以下敏感词，请修改后重试：</p>
        <p data-testid="sensitive-words">
          {info.words.map((w) => (
            <mark key={w} className="sensitive-word">
              {w}
            </mark>
          ))}
        </p>
        <ul>
          {info.suggestions.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
        <div className="modal-actions">
          <Button type="primary" onClick={close}>
            去修改
          </Button>
        </div>
      </div>
    </Modal>
  );
}
