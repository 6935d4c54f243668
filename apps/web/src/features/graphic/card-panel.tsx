import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Input, Radio, Select, Skeleton, Space, Tooltip } from 'antd';
import { EditOutlined, PictureOutlined, RobotOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { graphicLimits, limits, type CardTemplateId, type CardThemeId, type GraphicCard } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';
import { toast } from '../notifications/toasts';
import type { GraphicNote } from './use-graphic-note';
import { MaterialPicker } from './material-picker';
import { settle } from '../../api/request';

const sourceText: Record<GraphicCard['source'], string> = { card: '卡片', ai: 'AI配图', material: '素材', upload: '上传' };

/** Heading and text of one card; 应用 draws the card again with them. */
function CardText({ card, note, taskId }: { card: GraphicCard; note: GraphicNote; taskId: string }) {
  const [heading, setHeading] = useState(card.heading);
  const [text, setText] = useState(card.text);
  useEffect(() => {
    setHeading(card.heading);
    setText(card.text);
  }, [card.id, card.heading, card.text]);
  const changed = heading !== card.heading || text !== card.text;
  const apply = () => settle(note.cardCall(() => graphicApi.updateCard({ taskId, index: card.index, heading, text })));
  return (
    <div className="card-text">
      <Input
        aria-label="卡片标题"
        placeholder={card.index === 0 ? '封面大标题' : '卡片标题（可选）'}
        value={heading}
        maxLength={graphicLimits.cardHeadingMax}
        showCount
        onChange={(e) => setHeading(e.target.value)}
      />
      <Input.TextArea
        aria-label="卡片文字"
        data-testid="card-text"
        placeholder="卡片文字：列表、清单、步骤每行一条"
        autoSize={{ minRows: 3, maxRows: 10 }}
        value={text}
        maxLength={graphicLimits.cardTextMax}
        showCount
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && changed) apply();
        }}
      />
      <Button type="primary" disabled={!changed} loading={note.busy && changed} onClick={apply} data-testid="card-text-apply">
        应用文字并重新生成
      </Button>
      {card.source !== 'card' ? <p className="muted small">当前是{sourceText[card.source]}图片，应用文字后改回卡片。</p> : null}
    </div>
  );
}

/** Template and theme, for this card or every card. */
function CardStyle({ card, note, taskId }: { card: GraphicCard; note: GraphicNote; taskId: string }) {
  const [scope, setScope] = useState<'one' | 'all'>('one');
  const templates = useQuery({ queryKey: queryKeys.graphic.templates, queryFn: graphicApi.templates, staleTime: 3600_000 });
  const style = (patch: { templateId?: CardTemplateId; themeId?: CardThemeId }) =>
    settle(note.cardCall(() => graphicApi.style({ taskId, ...(scope === 'one' ? { index: card.index } : {}), ...patch })));
  if (templates.isPending) return <Skeleton.Input active size="small" />;
  if (templates.isError)
    return (
      <Alert
        type="error"
        title="模板加载失败"
        action={
          <Button size="small" onClick={() => templates.refetch()}>
            重试
          </Button>
        }
      />
    );
  return (
    <div className="card-style">
      <Radio.Group size="small" value={scope} onChange={(e) => setScope(e.target.value as 'one' | 'all')} data-testid="style-scope">
        <Radio.Button value="one">仅当前</Radio.Button>
        <Radio.Button value="all">全部图片</Radio.Button>
      </Radio.Group>
      <Select<CardTemplateId>
        aria-label="模板"
        data-testid="template-select"
        style={{ width: 180 }}
        value={card.templateId}
        disabled={note.busy}
        onChange={(templateId) => style({ templateId })}
        options={templates.data.templates.map((t) => ({ value: t.id, label: t.name, title: t.description }))}
      />
      <div className="theme-swatches" role="radiogroup" aria-label="配色">
        {templates.data.themes.map((t) => (
          <Tooltip key={t.id} title={t.name}>
            <button
              type="button"
              role="radio"
              aria-checked={card.themeId === t.id}
              aria-label={`配色 ${t.name}`}
              className={`theme-swatch${card.themeId === t.id ? ' on' : ''}`}
              style={{ background: t.background, color: t.accent }}
              disabled={note.busy}
              onClick={() => style({ themeId: t.id })}
            >
              Aa
            </button>
          </Tooltip>
        ))}
      </div>
    </div>
  );
}

/** Replace the picture: the rendered card, an AI picture (when on), an upload, or the image editor. */
function CardPicture({ card, note, taskId }: { card: GraphicCard; note: GraphicNote; taskId: string }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const imagegen = useQuery({ queryKey: queryKeys.graphic.imagegen, queryFn: graphicApi.imagegenStatus, staleTime: 600_000 });
  const [prompt, setPrompt] = useState(card.imagePrompt);
  const [picking, setPicking] = useState(false);
  useEffect(() => setPrompt(card.imagePrompt), [card.id, card.imagePrompt]);
  const aiOn = imagegen.data?.enabled === true;
  const onFile = (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    if (file.size > limits.uploadMaxBytes) {
      toast.message('warning', `图片不能超过${Math.round(limits.uploadMaxBytes / 1024 / 1024)}MB`, 3);
      return;
    }
    settle(note.cardCall(() => graphicApi.uploadImage(taskId, card.index, file, file.name)));
  };
  return (
    <div className="card-picture">
      <Space wrap>
        <Button
          icon={<PictureOutlined />}
          disabled={note.busy || card.source === 'card'}
          onClick={() => settle(note.cardCall(() => graphicApi.updateCard({ taskId, index: card.index, source: 'card' })))}
        >
          用卡片
        </Button>
        <input
          ref={fileRef}
          type="file"
          hidden
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label="上传图片"
          data-testid="card-upload-input"
          onChange={(e) => onFile(e.target.files?.[0])}
        />
        <Button icon={<UploadOutlined />} disabled={note.busy} onClick={() => fileRef.current?.click()}>
          上传图片
        </Button>
        <Button icon={<SearchOutlined />} disabled={note.busy} onClick={() => setPicking(true)} data-testid="open-material-picker">
          素材搜索
        </Button>
        <Button
          icon={<EditOutlined />}
          disabled={note.busy || !card.imageUrl}
          onClick={() => navigate(`/imageEditor/${encodeURIComponent(taskId)}?card=${card.index}`)}
          data-testid="open-image-editor"
        >
          编辑图片
        </Button>
      </Space>
      <div className="card-ai">
        <Input.TextArea
          aria-label="AI配图描述"
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={graphicLimits.aiPromptMax}
          placeholder="描述想要的配图"
          value={prompt}
          disabled={!aiOn}
          onChange={(e) => setPrompt(e.target.value)}
        />
        <Tooltip title={aiOn ? `每张 ${imagegen.data?.pointsPerImage ?? 0} 积分` : (imagegen.data?.reason ?? 'AI配图未开启')}>
          <Button
            icon={<RobotOutlined />}
            disabled={!aiOn || note.busy || !prompt.trim()}
            onClick={() => settle(note.cardCall(() => graphicApi.aiImage(taskId, card.index, prompt.trim())))}
            data-testid="card-ai"
          >
            AI配图
          </Button>
        </Tooltip>
      </div>
      <MaterialPicker
        open={picking}
        initialQuery={card.heading.slice(0, 20)}
        onClose={() => setPicking(false)}
        onPick={(photo) => {
          setPicking(false);
          settle(note.cardCall(() => graphicApi.setMaterial(taskId, card.index, photo.id)));
        }}
      />
      {imagegen.data && !aiOn ? (
        <p className="muted small" data-testid="imagegen-off">
          AI配图未开启：{imagegen.data.reason ?? '未配置图片生成服务'}
        </p>
      ) : null}
    </div>
  );
}

/** Everything about the picked card. */
export function CardPanel({ card, note, taskId }: { card: GraphicCard; note: GraphicNote; taskId: string }) {
  return (
    <section className="card-panel" data-testid="card-panel" aria-label={`第${card.index + 1}张`}>
      <h3>
        第{card.index + 1}张{card.index === 0 ? '（封面）' : ''} <span className="muted small">{sourceText[card.source]}</span>
      </h3>
      <CardText card={card} note={note} taskId={taskId} />
      <h4>模板与配色</h4>
      <CardStyle card={card} note={note} taskId={taskId} />
      <h4>更换图片</h4>
      <CardPicture card={card} note={note} taskId={taskId} />
    </section>
  );
}
