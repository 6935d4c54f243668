import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Alert, Button, Input, Progress, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { GeneratedBy } from '@inkstone/shared';
import { PictureOutlined } from '@ant-design/icons';
import { useIsLogin, useGlobalStore } from '../../stores/global';
import { writingApi } from '../../api/writing';
import { useTaskStream, clearSnapshot } from '../../features/writing/use-task-stream';
import { markdownToHtml, countWords } from '../../features/writing/markdown';
import { ImagePicker } from '../../features/writing/image-picker';
import { ImageNode } from './image-node';
import { PanelResizer, usePanelWidth } from './panel-resizer';
import { SidePanel } from './side-panel';
import '../../features/writing/writing.css';

const PublishDialog = lazy(() => import('../../features/publish/publish-dialog').then((m) => ({ default: m.PublishDialog })));

const AUTOSAVE_MS = 1500;
type SaveState = 'idle' | 'dirty' | 'saving' | 'saved' | 'error';

/** Sets the document; false when this instance was destroyed (its command manager is gone) and a new one must take it. */
function applyHtml(ed: Editor, html: string): boolean {
  try {
    ed.commands.setContent(html, { emitUpdate: false });
    return true;
  } catch {
    return false;
  }
}

export default function EditorPage() {
  const isLogin = useIsLogin();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const taskId = params.get('taskId');
  const draftParam = Number(params.get('draftId')) || null;

  const [title, setTitle] = useState('');
  const [draftId, setDraftId] = useState<number | null>(draftParam);
  const [save, setSave] = useState<SaveState>('idle');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [imageOpen, setImageOpen] = useState(false);
  // What the publish dialog starts from, taken once when it opens (a fresh object per render would reset it).
  const [publishFrom, setPublishFrom] = useState<ReturnType<typeof publishStart> | null>(null);
  const panel = usePanelWidth();
  const dirty = useRef(false);
  const saving = useRef<Promise<number | null> | null>(null);
  const titleRef = useRef(title);
  const draftIdRef = useRef(draftId);
  useEffect(() => {
    titleRef.current = title;
    draftIdRef.current = draftId;
  }, [title, draftId]);

  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), ImageNode],
    content: '',
    editorProps: { attributes: { class: 'article-body', 'data-testid': 'editor-body', 'aria-label': '正文' } },
    onUpdate: () => {
      dirty.current = true;
      setSave('dirty');
    },
  });
  // The doc, not getText(): the selector also runs while the editor is still being set up, before its schema serialisers exist.
  const words = useEditorState({ editor, selector: (c) => (c.editor && !c.editor.isDestroyed ? countWords(c.editor.state.doc.textBetween(0, c.editor.state.doc.content.size, '\n')) : 0) }) ?? 0;

  const stream = useTaskStream(taskId && isLogin === true ? taskId : null, { persist: true });
  // Who is writing: the offline writer's work is labelled beside the text (never inside it, since the body may be published).
  const taskInfo = useQuery({
    queryKey: ['writing', 'task-info', taskId],
    queryFn: () => writingApi.taskInfo(taskId!),
    enabled: !!taskId && isLogin === true,
    retry: false,
    staleTime: Infinity,
  });
  const [draftBy, setDraftBy] = useState<GeneratedBy | null>(null);
  const offline = (taskId ? taskInfo.data?.generatedBy : draftBy) === 'offline';
  const streaming = !!stream && (stream.status === 'connecting' || stream.status === 'streaming');

  // While the task streams, the editor mirrors it and is read-only; the user's edits begin after done.
  useEffect(() => {
    if (!editor || !stream) return;
    editor.setEditable(!streaming);
    if (streaming || stream.status === 'error') {
      editor.commands.setContent(markdownToHtml(stream.text), { emitUpdate: false });
      if (stream.title) setTitle(stream.title);
    }
  }, [editor, stream, streaming]);

  // The draft arrives asynchronously; the editor instance may have been replaced meanwhile (useEditor recreates it), so
  // the content goes to the live instance, or waits for the next one instead of being lost on a destroyed one.
  const liveEditor = useRef(editor);
  const pendingHtml = useRef<string | null>(null);
  useEffect(() => {
    liveEditor.current = editor;
    if (editor && pendingHtml.current !== null && applyHtml(editor, pendingHtml.current)) pendingHtml.current = null;
  }, [editor]);

  const loadDraft = useCallback(async (id: number) => {
    try {
      const d = await writingApi.draft(id);
      setDraftId(d.id);
      setDraftBy(d.generatedBy ?? null);
      setTitle(d.title);
      const html = d.html || markdownToHtml(d.markdown);
      const ed = liveEditor.current;
      if (!ed || !applyHtml(ed, html)) pendingHtml.current = html;
      dirty.current = false;
      setSave('saved');
      setLoadError(null);
    } catch (e) {
      setLoadError((e as Error).message || '草稿加载失败');
    }
  }, []);

  // The finished task became a draft: show the saved version and make the address point at it, so a reload opens the draft.
  useEffect(() => {
    if (stream?.status !== 'done' || !editor) return;
    clearSnapshot();
    if (stream.draftId) {
      void loadDraft(stream.draftId).then(() => navigate(`/editor?draftId=${stream.draftId}`, { replace: true }));
    } else {
      editor.commands.setContent(markdownToHtml(stream.text), { emitUpdate: false });
      setTitle(stream.title);
      dirty.current = true;
      setSave('dirty');
    }
  }, [stream?.status, stream?.draftId, editor]); // eslint-disable-line react-hooks/exhaustive-deps

  const loadedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!editor || !draftParam || taskId || isLogin !== true || loadedFor.current === draftParam) return;
    loadedFor.current = draftParam;
    // Just finished streaming into this very draft: it is already loaded.
    if (draftIdRef.current === draftParam && !editor.isEmpty) return;
    void loadDraft(draftParam);
  }, [editor, draftParam, taskId, isLogin, loadDraft]);

  const newDraft = () => {
    clearSnapshot();
    setDraftId(null);
    setDraftBy(null);
    draftIdRef.current = null;
    loadedFor.current = null;
    setTitle('');
    editor?.commands.clearContent(false);
    dirty.current = false;
    setSave('idle');
    navigate('/editor');
  };

  const saveNow = useCallback(async (): Promise<number | null> => {
    if (!editor) return draftIdRef.current;
    if (saving.current) await saving.current;
    if (!dirty.current && draftIdRef.current) return draftIdRef.current;
    dirty.current = false;
    setSave('saving');
    const p = writingApi
      .saveDraft({ id: draftIdRef.current, title: titleRef.current, html: editor.getHTML() }, { silent: true })
      .then((d) => {
        setDraftId(d.id);
        draftIdRef.current = d.id;
        setSave(dirty.current ? 'dirty' : 'saved');
        return d.id;
      })
      .catch(() => {
        dirty.current = true;
        setSave('error');
        return null;
      })
      .finally(() => {
        saving.current = null;
      });
    saving.current = p;
    return p;
  }, [editor]);

  useEffect(() => {
    if (save !== 'dirty' || streaming || isLogin !== true) return;
    const t = window.setTimeout(() => void saveNow(), AUTOSAVE_MS);
    return () => window.clearTimeout(t);
  }, [save, title, words, streaming, isLogin, saveNow]);

  // Leaving inside the autosave delay (another page, a hidden tab) must not lose the last edit: save it on the way out.
  const leaveRef = useRef({ saveNow, canSave: false });
  useEffect(() => {
    leaveRef.current = { saveNow, canSave: !streaming && isLogin === true };
  }, [saveNow, streaming, isLogin]);
  useEffect(() => {
    const flush = () => {
      if (dirty.current && leaveRef.current.canSave) void leaveRef.current.saveNow();
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, []);

  const onTitle = (v: string) => {
    setTitle(v);
    dirty.current = true;
    setSave('dirty');
  };

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
          <SaveIndicator state={save} onRetry={() => void saveNow()} />
          <Button type="primary" onClick={() => void saveNow().then(() => setPublishFrom(publishStart(title, editor)))} disabled={streaming || !words} data-testid="editor-publish">
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
          onOpenDraft={(id) => void saveNow().then(() => navigate(`/editor?draftId=${id}`))}
          onNewDraft={() => void saveNow().then(newDraft)}
        />
      </aside>
      <ImagePicker
        open={imageOpen}
        onClose={() => setImageOpen(false)}
        onPick={(src) => editor?.chain().focus().insertContent({ type: 'image', attrs: { src } }).run()}
      />
      {publishFrom ? (
        <Suspense fallback={null}>
          <PublishDialog
            open
            onClose={() => setPublishFrom(null)}
            draftId={draftId ?? undefined}
            draftHtml={publishFrom.html}
            initial={publishFrom.initial}
          />
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
  if (state === 'saving') return <span className="muted" data-testid="save-state">保存中…</span>;
  if (state === 'saved') return <span className="muted" data-testid="save-state">已保存</span>;
  if (state === 'dirty') return <span className="muted" data-testid="save-state">未保存</span>;
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
