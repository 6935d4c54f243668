import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { Button, List, Select, Space, Tag } from 'antd';
import { writingLimits, type AbilityType } from '@inkstone/shared';
import { writingApi, saveBlob } from '../../api/writing';
import { isApiError } from '../../api/request';
import { MSG } from '../../api/error-policy';
import { queryKeys } from '../../api/query-keys';
import { toast } from '../../features/notifications/toasts';
import { useTaskStream } from '../../features/writing/use-task-stream';
import { markdownToHtml } from '../../features/writing/markdown';
import { copyRichText, toWechatHtml } from '../../features/writing/rich-copy';
import { settle } from '../../api/request';

const abilities: { type: AbilityType; label: string }[] = [
  { type: 'continue', label: '续写' },
  { type: 'expand', label: '扩写' },
  { type: 'shorten', label: '缩写' },
  { type: 'polish', label: '润色' },
  { type: 'persona', label: '人设口吻' },
  { type: 'tone', label: '改语气' },
];
const tones = [
  { value: 'formal', label: '正式' },
  { value: 'casual', label: '轻松' },
  { value: 'humorous', label: '幽默' },
  { value: 'warm', label: '温暖' },
  { value: 'professional', label: '专业' },
  { value: 'lively', label: '活泼' },
] as const;
type Tone = (typeof tones)[number]['value'];

/** Beside (never inside) text from the offline writer: it is not AI. */
export function OfflineTag() {
  return (
    <Tag color="orange" className="offline-tag" data-testid="offline-tag">
      离线写作助手生成，非AI
    </Tag>
  );
}

interface Pending {
  taskId: string;
  type: AbilityType;
  from: number;
  to: number;
  whole: boolean;
}

export interface AiTabProps {
  editor: Editor | null;
  streaming: boolean;
  title: string;
  draftId: number | null;
  onTitle(t: string): void;
  saveNow(): Promise<number | null>;
}

/** Rewrites the selection (or the whole text) with an AI ability, previews the result and applies it on 接受. */
function RewriteSection({
  editor,
  streaming,
  personaId,
  setPersonaId,
}: {
  editor: Editor | null;
  streaming: boolean;
  personaId: number | null;
  setPersonaId(v: number | null): void;
}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [tone, setTone] = useState<Tone>('casual');
  const personas = useQuery({ queryKey: queryKeys.persona.list, queryFn: writingApi.personas });
  const preview = useTaskStream(pending?.taskId ?? null);
  const previewInfo = useQuery({
    queryKey: queryKeys.writing.taskInfo(pending?.taskId ?? null),
    queryFn: () => writingApi.taskInfo(pending!.taskId),
    enabled: !!pending,
    retry: false,
    staleTime: Infinity,
  });
  const result = preview?.text ?? '';
  const previewDone = preview?.status === 'done';

  useEffect(() => {
    if (preview?.status === 'error') toast.message('error', preview.error?.msg || MSG.serverBusy, 3);
  }, [preview?.status]); // eslint-disable-line react-hooks/exhaustive-deps

  const run = async (type: AbilityType) => {
    if (!editor) return;
    const { from, to, empty } = editor.state.selection;
    const whole = empty;
    const text = whole ? editor.getText() : editor.state.doc.textBetween(from, to, '\n');
    if (!text.trim()) {
      toast.message('warning', '请先写一些内容或选中要处理的文字', 2);
      return;
    }
    if (type === 'persona' && !personaId) {
      toast.message('warning', '请先选择人设', 2);
      return;
    }
    try {
      const { taskId } = await writingApi.createAbility({
        abilityType: type,
        text: text.slice(0, writingLimits.abilityMaxChars),
        context: whole ? undefined : editor.getText().slice(0, writingLimits.promptMaxChars),
        personaId: type === 'persona' ? personaId : undefined,
        tone: type === 'tone' ? tone : undefined,
      });
      setPending({ taskId, type, from, to, whole });
    } catch {
      // the request layer has told the user
    }
  };

  const accept = () => {
    if (!editor || !pending) return;
    const html = markdownToHtml(result);
    const chain = editor.chain().focus();
    if (pending.type === 'continue') {
      chain.insertContentAt(pending.whole ? editor.state.doc.content.size : pending.to, html).run();
    } else if (pending.whole) {
      chain.setContent(html).run();
    } else {
      chain.insertContentAt({ from: pending.from, to: pending.to }, html).run();
    }
    setPending(null);
  };

  const busy = !!pending && !previewDone && preview?.status !== 'error';
  return (
    <section>
      <h4>AI 改写</h4>
      <p className="muted">选中文字后点击，只处理选中部分；不选则处理全文。</p>
      <Space wrap>
        <Select
          aria-label="改写人设"
          size="small"
          placeholder="人设"
          allowClear
          style={{ width: 120 }}
          value={personaId ?? undefined}
          onChange={(v?: number) => setPersonaId(v ?? null)}
          options={(personas.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
        <Select aria-label="语气" size="small" style={{ width: 90 }} value={tone} onChange={(v: Tone) => setTone(v)} options={[...tones]} />
      </Space>
      <div className="ability-buttons" data-testid="abilities">
        {abilities.map((a) => (
          <Button key={a.type} size="small" disabled={streaming || busy} onClick={() => settle(run(a.type))}>
            {a.label}
          </Button>
        ))}
      </div>
      {pending ? (
        <div className="ability-preview" data-testid="ability-preview" aria-live="polite">
          <div className="muted">
            {abilities.find((a) => a.type === pending.type)?.label}结果{previewDone ? '' : '生成中…'}
            {previewInfo.data?.generatedBy === 'offline' ? <OfflineTag /> : null}
          </div>
          <div className="ability-text">{result || (preview?.status === 'error' ? preview.error?.msg : '…')}</div>
          <Space>
            <Button type="primary" size="small" disabled={!previewDone || !result.trim()} onClick={accept}>
              接受
            </Button>
            <Button size="small" onClick={() => setPending(null)}>
              放弃
            </Button>
          </Space>
        </div>
      ) : null}
    </section>
  );
}

/** Title suggestions for the text (in the chosen persona's voice), one click to use. */
function TitleSection({ editor, streaming, personaId, onTitle }: { editor: Editor | null; streaming: boolean; personaId: number | null; onTitle(t: string): void }) {
  const [titles, setTitles] = useState<{ titles: string[]; isAi: boolean } | null>(null);
  const [titleBusy, setTitleBusy] = useState(false);

  const genTitles = async () => {
    const content = editor?.getText() ?? '';
    if (!content.trim()) {
      toast.message('warning', '请先写一些正文', 2);
      return;
    }
    setTitleBusy(true);
    try {
      const r = await writingApi.generateTitles({ content: content.slice(0, writingLimits.draftMaxChars), count: 5, personaId });
      setTitles(r);
    } catch (e) {
      // Spec section 8: whatever the code, title generation says the server is busy.
      if (!(isApiError(e) && (e.code === 401 || e.code === 430))) toast.message('error', MSG.serverBusy, 3);
    } finally {
      setTitleBusy(false);
    }
  };

  return (
    <section>
      <h4>标题</h4>
      <Button size="small" loading={titleBusy} disabled={streaming} onClick={() => settle(genTitles())} data-testid="gen-titles">
        生成标题
      </Button>
      {titles ? (
        <List
          size="small"
          data-testid="title-list"
          header={titles.isAi ? undefined : <OfflineTag />}
          dataSource={titles.titles}
          locale={{ emptyText: '没有生成标题' }}
          renderItem={(t) => (
            <List.Item
              actions={[
                <Button key="use" type="link" size="small" onClick={() => onTitle(t)}>
                  使用
                </Button>,
              ]}
            >
              {t}
            </List.Item>
          )}
        />
      ) : null}
    </section>
  );
}

/** Copy for the 公众号 editor, or download the saved draft as Word / Markdown. */
function ExportSection({ editor, streaming, title, draftId, saveNow }: Omit<AiTabProps, 'onTitle'>) {
  const [exporting, setExporting] = useState<string | null>(null);

  const copyWechat = async () => {
    if (!editor) return;
    try {
      await copyRichText(toWechatHtml(editor.getHTML(), title), `${title ? `${title}\n\n` : ''}${editor.getText()}`);
      toast.message('success', '已复制，可直接粘贴到公众号编辑器', 2);
    } catch {
      toast.message('error', '复制失败，请检查浏览器剪贴板权限', 3);
    }
  };

  const download = async (format: 'docx' | 'md') => {
    setExporting(format);
    try {
      const id = (await saveNow()) ?? draftId;
      if (!id) {
        toast.message('error', '草稿保存失败，无法导出', 3);
        return;
      }
      const file = await writingApi.exportDraft(id, format);
      saveBlob(file.blob, file.filename ?? `${title || '草稿'}.${format}`);
    } catch {
      // the request layer has told the user
    } finally {
      setExporting(null);
    }
  };

  return (
    <section>
      <h4>导出</h4>
      <Space wrap>
        <Button size="small" disabled={streaming} onClick={() => settle(copyWechat())} data-testid="copy-wechat">
          复制到公众号
        </Button>
        <Button size="small" disabled={streaming} loading={exporting === 'docx'} onClick={() => settle(download('docx'))} data-testid="export-docx">
          下载 Word
        </Button>
        <Button size="small" disabled={streaming} loading={exporting === 'md'} onClick={() => settle(download('md'))} data-testid="export-md">
          下载 Markdown
        </Button>
      </Space>
    </section>
  );
}

/** The editor's AI assistant: rewriting, titles and export. The persona chosen for rewriting also voices the titles. */
export function AiTab({ editor, streaming, title, draftId, onTitle, saveNow }: AiTabProps) {
  const [personaId, setPersonaId] = useState<number | null>(null);
  return (
    <div className="ai-tab">
      <RewriteSection editor={editor} streaming={streaming} personaId={personaId} setPersonaId={setPersonaId} />
      <TitleSection editor={editor} streaming={streaming} personaId={personaId} onTitle={onTitle} />
      <ExportSection editor={editor} streaming={streaming} title={title} draftId={draftId} saveNow={saveNow} />
    </div>
  );
}
