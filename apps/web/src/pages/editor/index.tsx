import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EditorContent, useEditorState, type Editor } from '@tiptap/react';
import { Alert, Button, Input, Progress, Space, Tag, Tooltip } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useIsLogin, useGlobalStore } from '../../stores/global';
import { ImagePicker } from '../../features/writing/image-picker';
import { PanelResizer, usePanelWidth } from './panel-resizer';
import { SidePanel } from './side-panel';
import { draftHref } from '../../features/graphic/draft-link';
import '../../features/writing/writing.css';
import { useEditorDraft, type SaveState } from './use-editor-draft';
import { settle } from '../../api/request';

const PublishDialog = lazy(() => import('../../features/publish/publish-dialog').then((m) => ({ default: m.PublishDialog })));

export default function EditorPage() {
  const isLogin = useIsLogin();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const taskId = params.get('taskId');
  const draftParam = Number(params.get('draftId')) || null;

  const { editor, words, stream, streaming, offline, title, onTitle, draftId, save, loadError, saveNow, newDraft } = useEditorDraft({ taskId, draftParam, isLogin });
  const [imageOpen, setImageOpen] = useState(false);
  // What the publish dialog starts from, taken once when it opens (a fresh object per render would reset it).
  const [publishFrom, setPublishFrom] = useState<ReturnType<typeof publishStart> | null>(null);
  const panel = usePanelWidth();

  if (isLogin === false) {
    return (
      <section className="page" data-testid="page-editor">
        <h1 className="page-title">写作编辑器</h1>
        <Alert type="info" showIcon title="请先登录后使用编辑器" action={<Button onClick={() => useGlobalStore.getState().openModal('login')}>登录</Button>} />
      </section>
    );
  }

  return (
    <section className="page editor-page" data-testid="page-editor">
      {/* The document title is an input; this heading names the page for screen readers. */}
      <h1 className="sr-only">写作编辑器</h1>
      <div className="editor-main">
        <div className="editor-toolbar">
          <Toolbar editor={editor} onImage={() => setImageOpen(true)} disabled={streaming} />
          <span className="spacer" />
          <span className="muted" data-testid="word-count">
            {words} 字
          </span>
          <SaveIndicator state={save} onRetry={() => settle(saveNow())} />
          <Button
            type="primary"
            onClick={() => settle(saveNow().then(() => setPublishFrom(publishStart(title, editor))))}
            disabled={streaming || !words}
            data-testid="editor-publish"
          >
            发布
          </Button>
        </div>
        {loadError ? <Alert type="error" showIcon title={loadError} /> : null}
        {stream && stream.status !== 'done' ? (
          <div className="stream-status" data-testid="stream-status" aria-live="polite">
            {stream.status === 'error' ? (
              <Alert
                type="error"
                showIcon
                title={stream.error?.msg ?? '写作失败'}
                description={stream.error?.refunded ? '本次消耗的积分已退还' : undefined}
                data-testid="stream-error"
              />
            ) : (
              <>
                <Progress percent={stream.percent} size="small" status="active" />
                <span>{stream.message || '正在连接…'}</span>
              </>
            )}
          </div>
        ) : null}
        {offline ? (
          <Alert
            type="info"
            showIcon
            className="offline-label"
            data-testid="offline-label"
            title={<Tag color="orange">离线写作助手生成，非AI</Tag>}
            description="离线写作助手不调用AI模型，只把你的输入、引用文件和人设排成结构化草稿；方括号【】处请补充你自己的内容。这条提示不在正文里，不会被发布。"
          />
        ) : null}
        <Input
          className="title-input"
          variant="borderless"
          placeholder="请输入标题"
          aria-label="标题"
          maxLength={200}
          value={title}
          disabled={streaming}
          onChange={(e) => onTitle(e.target.value)}
          data-testid="editor-title"
        />
        <EditorContent editor={editor} className="editor-content" />
      </div>
      <PanelResizer width={panel.width} screen={panel.screen} onChange={panel.setWidth} />
      <aside className="editor-panel" style={{ width: panel.width }} data-testid="editor-panel">
        <SidePanel
          editor={editor}
          stream={stream}
          streaming={streaming}
          title={title}
          draftId={draftId}
          onTitle={onTitle}
          saveNow={saveNow}
          onOpenDraft={(d) => settle(saveNow().then(() => navigate(draftHref(d))))}
          onNewDraft={() => settle(saveNow().then(newDraft))}
        />
      </aside>
      <ImagePicker open={imageOpen} onClose={() => setImageOpen(false)} onPick={(src) => editor?.chain().focus().insertContent({ type: 'image', attrs: { src } }).run()} />
      {publishFrom ? (
        <Suspense fallback={null}>
          <PublishDialog open onClose={() => setPublishFrom(null)} draftId={draftId ?? undefined} draftHtml={publishFrom.html} initial={publishFrom.initial} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The dialog's starting content; the article's own images count towards a platform's image minimum. */
function publishStart(title: string, editor: Editor | null) {
  const images: string[] = [];
  // The document's image nodes, in order: what the server will find in the saved HTML.
  editor?.state.doc.descendants((node) => {
    const src = node.type.name === 'image' ? (node.attrs.src as string | undefined) : undefined;
    if (src && !images.includes(src)) images.push(src);
  });
  return { html: editor?.getHTML() ?? '', initial: { title, body: editor?.getText() ?? '', images, topics: [] as string[] } };
}

function SaveIndicator({ state, onRetry }: { state: SaveState; onRetry(): void }) {
  if (state === 'saving')
    return (
      <span className="muted" data-testid="save-state">
        保存中…
      </span>
    );
  if (state === 'saved')
    return (
      <span className="muted" data-testid="save-state">
        已保存
      </span>
    );
  if (state === 'dirty')
    return (
      <span className="muted" data-testid="save-state">
        未保存
      </span>
    );
  if (state === 'error')
    return (
      <Button size="small" type="link" danger onClick={onRetry} data-testid="save-state">
        保存失败，重试
      </Button>
    );
  return null;
}

function Toolbar({ editor, onImage, disabled }: { editor: Editor | null; onImage(): void; disabled: boolean }) {
  const active = useEditorState({
    editor,
    selector: (c) => ({
      bold: c.editor?.isActive('bold') ?? false,
      h2: c.editor?.isActive('heading', { level: 2 }) ?? false,
      bullet: c.editor?.isActive('bulletList') ?? false,
      quote: c.editor?.isActive('blockquote') ?? false,
    }),
  });
  if (!editor) return null;
  const b = (label: string, on: boolean | undefined, run: () => void, tip: string) => (
    <Tooltip title={tip}>
      <Button size="small" type={on ? 'primary' : 'text'} disabled={disabled} onClick={run} aria-label={tip} aria-pressed={!!on}>
        {label}
      </Button>
    </Tooltip>
  );
  return (
    <Space size={2}>
      {b('B', active?.bold, () => editor.chain().focus().toggleBold().run(), '加粗')}
      {b('H2', active?.h2, () => editor.chain().focus().toggleHeading({ level: 2 }).run(), '小标题')}
      {b('•', active?.bullet, () => editor.chain().focus().toggleBulletList().run(), '列表')}
      {b('“', active?.quote, () => editor.chain().focus().toggleBlockquote().run(), '引用')}
      <Tooltip title="插入图片">
        <Button size="small" type="text" icon={<PictureOutlined />} disabled={disabled} onClick={onImage} aria-label="插入图片" />
      </Tooltip>
    </Space>
  );
}
