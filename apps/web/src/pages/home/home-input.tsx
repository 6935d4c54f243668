import { lazy, Suspense, useRef } from 'react';
import { Link } from 'react-router';
import { Button, Segmented, Select, Switch, Tag, Tooltip } from 'antd';
// The text area alone: antd's Input carries Password, Search and OTP along as its statics.
import TextArea from 'antd/es/input/TextArea';
import { PaperClipOutlined } from '@ant-design/icons';
import { writingLimits, type WriteType } from '@inkstone/shared';
import { useHomeInputStore, type CreateType } from '../../stores/home-input';
import { KnowledgeQuote } from '../../features/knowledge/knowledge-quote';
import { writeTypeOptions } from './home-input-sync';
import { PointsCost } from '../../features/vip/points-cost';
import { homeTaskFeature } from '../../features/vip/points-cost-label';
import type { HomeForm } from './use-home-form';
import { settle } from '../../api/request';

/**
 * The 图文 box's options and progress (InputNumber, Progress, Alert and the graphic styles): loaded when 图文 is chosen,
 * so the default 文章 box does not fetch them.
 */
const HomeGraphic = lazy(() => import('../../features/graphic/home-graphic').then((m) => ({ default: m.HomeGraphic })));

const bottomLabel: Record<WriteType, string> = {
  deep: '补充素材或要求（可选）',
  quick: '补充素材或要求（可选）',
  imitate: '粘贴要仿写的范文',
  rewrite: '粘贴需要改写的内容',
};

/** The files quoted into the task, each removable. */
function QuoteList({ f }: { f: HomeForm }) {
  if (!f.quoted.length) return null;
  return (
    <div className="quote-list" data-testid="quote-list">
      {f.quoted.map((id) => {
        const file = f.files.data?.find((x) => x.id === id);
        return (
          <Tag key={id} closable icon={<PaperClipOutlined />} onClose={() => f.set({ writeFileList: f.quoted.filter((x) => x !== id) })}>
            {file ? `${file.name}（${file.chars}字）` : `文件 #${id}`}
          </Tag>
        );
      })}
    </div>
  );
}

/** Persona, model, online search, quoted files and knowledge, then 清空 / 开始写作. */
function HomeInputBar({ f }: { f: HomeForm }) {
  const reset = useHomeInputStore((s) => s.reset);
  const fileRef = useRef<HTMLInputElement>(null);
  const unquoted = f.files.data?.filter((x) => !f.quoted.includes(x.id)) ?? [];
  return (
    <div className="home-input-bar">
      <Select
        aria-label="人设"
        placeholder="选择人设"
        allowClear
        style={{ width: 150 }}
        value={f.input.personaType ?? undefined}
        onChange={(v?: string) => f.set({ personaType: v ?? null })}
        options={(f.personas.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
        notFoundContent={f.loggedIn ? <Link to="/accountManager/persona/new">新建人设</Link> : '登录后可使用人设'}
      />
      {f.abilityTypeList.length ? (
        <Select
          aria-label="写作能力"
          data-testid="ability-select"
          placeholder="写作能力"
          allowClear
          style={{ width: 140 }}
          value={f.abilityType ?? undefined}
          onChange={(v?: string) => f.set({ abilityType: v ?? null })}
          options={f.abilityTypeList.map((a) => ({ value: a.id, label: a.label, title: a.description }))}
        />
      ) : null}
      <Select
        aria-label="写作模型"
        data-testid="model-select"
        placeholder="写作模型"
        style={{ width: 200 }}
        value={f.modelId}
        onChange={(v: string) => f.set({ modelConfigType: v })}
        options={(f.models.data ?? []).map((m) => ({ value: m.id, label: m.label }))}
      />
      <Tooltip title={f.searchOn ? undefined : (f.search.data?.reason ?? (f.loggedIn ? '联网搜索未配置' : '登录后可用'))}>
        <span className="switch-field">
          <Switch aria-label="联网搜索" size="small" disabled={!f.searchOn} checked={f.searchOn && f.input.onlineSearch} onChange={(v) => f.set({ onlineSearch: v })} />
          联网搜索
        </span>
      </Tooltip>
      <input
        ref={fileRef}
        type="file"
        hidden
        aria-label="上传引用文件"
        data-testid="quote-file-input"
        accept=".docx,.pdf,.txt,.md"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared at once so picking the same file again fires another change.
          e.target.value = '';
          settle(f.onFile(file));
        }}
      />
      <Button icon={<PaperClipOutlined />} loading={f.uploading} onClick={() => f.requireLogin() && fileRef.current?.click()}>
        引用文件
      </Button>
      {unquoted.length ? (
        <Select
          aria-label="引用已上传的文件"
          placeholder="引用已上传的文件"
          style={{ width: 160 }}
          value={null}
          onChange={(v: number | null) => v && f.quoted.length < writingLimits.quoteFilesMax && f.set({ writeFileList: [...f.quoted, v] })}
          options={unquoted.map((x) => ({ value: x.id, label: x.name }))}
        />
      ) : null}
      <KnowledgeQuote enabled={f.loggedIn} />
      <span className="spacer" />
      <Button onClick={reset}>清空</Button>
      <PointsCost feature={homeTaskFeature(f.graphic, f.writeType, f.model?.pointsFeature)} free={f.model ? !f.model.isAi : false} />
      <Button type="primary" onClick={() => settle(f.start())} loading={f.starting || (f.graphic && f.graphicTask.starting)} data-testid="home-start">
        {f.graphic ? '生成图文' : '开始写作'}
      </Button>
    </div>
  );
}

/** The input box: article or graphic, the writing mode, the topic and the material. */
export function HomeInput({ f, inputRef }: { f: HomeForm; inputRef: React.Ref<HTMLDivElement> }) {
  const setCreateType = useHomeInputStore((s) => s.setCreateType);
  return (
    <div className="home-input" ref={inputRef} data-testid="home-input">
      <Segmented<CreateType>
        value={f.createType}
        onChange={setCreateType}
        options={[
          { value: 'article', label: '文章' },
          { value: 'graphic', label: '图文' },
        ]}
      />
      {f.graphic ? (
        <Suspense fallback={<div className="graphic-options" aria-busy="true" />}>
          <HomeGraphic
            loggedIn={f.loggedIn}
            config={f.graphicConfig}
            onConfig={(c) => f.set({ graphicModelConfig: c })}
            taskId={f.graphicTask.taskId}
            onDone={f.graphicTask.open}
            onDismiss={f.graphicTask.dismiss}
          />
        </Suspense>
      ) : null}
      <Segmented<WriteType> aria-label="写作模式" data-testid="write-type" value={f.writeType} onChange={(v) => f.set({ writeType: v })} options={writeTypeOptions} />
      <TextArea
        aria-label="写作主题"
        placeholder={f.graphic ? '输入主题，AI 帮你生成小红书图文' : '输入主题、观点或素材，AI 帮你写成文章'}
        autoSize={{ minRows: 3, maxRows: 10 }}
        maxLength={writingLimits.promptMaxChars}
        value={f.top}
        onChange={(e) => f.setDoc('top', e.target.value)}
      />
      <TextArea
        aria-label={bottomLabel[f.writeType]}
        placeholder={bottomLabel[f.writeType]}
        autoSize={{ minRows: f.writeType === 'imitate' || f.writeType === 'rewrite' ? 4 : 2, maxRows: 12 }}
        maxLength={writingLimits.promptMaxChars}
        value={f.bottom}
        onChange={(e) => f.setDoc('bottom', e.target.value)}
      />
      <QuoteList f={f} />
      <HomeInputBar f={f} />
    </div>
  );
}
