import { lazy, Suspense, useRef } from 'react';
import { Button, Checkbox, Input, Segmented, Select } from 'antd';
import { PageFrame } from '../../components/page-frame';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useHomeInputStore, type CreateType } from '../../stores/home-input';
import { toast } from '../../features/notifications/toasts';
import { LS, lsGet } from '../../lib/storage-keys';

const HomeTour = lazy(() => import('../../features/modals/home-tour'));

const writeTypes = [
  { value: 'deep', label: '深度写作' },
  { value: 'quick', label: '快速写作' },
  { value: 'imitate', label: '仿写' },
  { value: 'rewrite', label: '改写' },
];

export default function HomePage() {
  const isLogin = useIsLogin();
  const providedProfile = useGlobalStore((s) => s.modalVisibleMap.isProvidedProfile);
  const reward = useGlobalStore((s) => s.userReward);
  const createType = useHomeInputStore((s) => s.createType);
  const input = useHomeInputStore((s) => s[s.createType]);
  const update = useHomeInputStore((s) => s.update);
  const setCreateType = useHomeInputStore((s) => s.setCreateType);
  const reset = useHomeInputStore((s) => s.reset);
  const inputRef = useRef<HTMLDivElement>(null);
  const text = typeof input.editorContent.top === 'string' ? input.editorContent.top : '';
  const showTour = isLogin === true && providedProfile === true && !lsGet(LS.tourHomeDone);

  const start = () => {
    if (isLogin !== true) {
      useGlobalStore.getState().openModal('login');
      return;
    }
    if (!text.trim()) {
      toast.message('warning', '请先输入写作主题', 2);
      return;
    }
    toast.message('info', 'AI 写作将在后续版本开放，已为你保留输入内容', 3);
  };

  return (
    <PageFrame testId="page-home" title="今天想写点什么？">
      <div className="home-input" ref={inputRef} data-testid="home-input">
        <Segmented<CreateType>
          value={createType}
          onChange={setCreateType}
          options={[
            { value: 'article', label: '文章' },
            { value: 'graphic', label: '图文' },
          ]}
        />
        <Input.TextArea
          aria-label="写作主题"
          placeholder={createType === 'article' ? '输入主题、观点或素材，AI 帮你写成文章' : '输入主题，AI 帮你生成小红书图文'}
          autoSize={{ minRows: 4, maxRows: 10 }}
          value={text}
          onChange={(e) => update(createType, { editorContent: { ...input.editorContent, top: e.target.value } })}
        />
        <div className="home-input-bar">
          <Select
            aria-label="写作模式"
            value={input.writeType}
            options={writeTypes}
            onChange={(writeType) => update(createType, { writeType })}
            style={{ width: 120 }}
          />
          <Checkbox checked={input.onlineSearch} onChange={(e) => update(createType, { onlineSearch: e.target.checked })}>
            联网搜索
          </Checkbox>
          <span className="spacer" />
          <Button onClick={reset}>清空</Button>
          <Button type="primary" onClick={start} data-testid="home-start">
            开始创作
          </Button>
        </div>
      </div>
      {reward ? (
        <p className="muted" data-testid="daily-reward">
          每日登录奖励 {reward.dailyReward} 积分
        </p>
      ) : null}
      {showTour ? (
        <Suspense fallback={null}>
          <HomeTour target={() => inputRef.current} />
        </Suspense>
      ) : null}
    </PageFrame>
  );
}
