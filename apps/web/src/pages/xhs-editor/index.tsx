import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Empty, Skeleton, Space, Tag, Tooltip } from 'antd';
import { CopyOutlined, DownloadOutlined, SendOutlined } from '@ant-design/icons';
import { graphicApi } from '../../api/graphic';
import { saveBlob } from '../../api/writing';
import { PageFrame } from '../../components/page-frame';
import { toast } from '../../features/notifications/toasts';
import { GraphicStream } from '../../features/graphic/graphic-stream';
import { PhonePreview } from '../../features/graphic/phone-preview';
import { CardStrip } from '../../features/graphic/card-strip';
import { CardPanel } from '../../features/graphic/card-panel';
import { NoteFields } from '../../features/graphic/note-fields';
import { noteText, useGraphicNote, type GraphicNote, type SaveState } from '../../features/graphic/use-graphic-note';
import '../../features/graphic/graphic.css';
import { settle } from '../../api/request';

const PublishDialog = lazy(() => import('../../features/publish/publish-dialog').then((m) => ({ default: m.PublishDialog })));

const saveText: Record<SaveState, { text: string; color: string }> = {
  idle: { text: '已保存', color: 'default' },
  saving: { text: '保存中…', color: 'processing' },
  saved: { text: '已自动保存', color: 'success' },
  invalid: { text: '超出字数限制，未保存', color: 'warning' },
  error: { text: '保存失败，稍后重试', color: 'error' },
};

function Toolbar({ note, taskId, onPublish }: { note: GraphicNote; taskId: string; onPublish(): void }) {
  const [zipping, setZipping] = useState(false);
  const s = saveText[note.saveState];
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(noteText(note.title, note.body, note.tags));
      toast.message('success', '文案已复制', 2);
    } catch {
      toast.message('error', '复制失败，请手动选择文字复制', 3);
    }
  };
  const download = async () => {
    setZipping(true);
    try {
      const file = await graphicApi.zip(taskId);
      saveBlob(file.blob, file.filename ?? `${note.title.trim() || '图文'}.zip`);
    } catch {
      // the request layer showed why
    } finally {
      setZipping(false);
    }
  };
  return (
    <div className="xhs-toolbar">
      <Tag color={s.color} data-testid="autosave-state">
        {s.text}
      </Tag>
      <span className="spacer" />
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={() => settle(copy())} data-testid="copy-text">
          复制文案
        </Button>
        <Button icon={<DownloadOutlined />} loading={zipping} onClick={() => settle(download())} data-testid="download-zip">
          下载全部图片
        </Button>
        <Tooltip title={note.problems[0]}>
          <Button type="primary" icon={<SendOutlined />} disabled={note.problems.length > 0 || !note.cards.length} onClick={onPublish} data-testid="xhs-publish">
            发布
          </Button>
        </Tooltip>
      </Space>
    </div>
  );
}

function Editor({ taskId, note }: { taskId: string; note: GraphicNote }) {
  const [current, setCurrent] = useState(0);
  const [publishing, setPublishing] = useState(false);
  const at = Math.min(current, Math.max(0, note.cards.length - 1));
  const card = note.cards[at];
  return (
    <div className="xhs-editor">
      <aside className="xhs-preview">
        <PhonePreview cards={note.cards} current={at} onChange={setCurrent} title={note.title} body={note.body} tags={note.tags} />
      </aside>
      <div className="xhs-panel">
        <Toolbar note={note} taskId={taskId} onPublish={() => setPublishing(true)} />
        <NoteFields note={note} />
        <CardStrip
          cards={note.cards}
          current={at}
          busy={note.busy}
          onSelect={setCurrent}
          onReorder={(order) => settle(note.cardCall(() => graphicApi.reorder(taskId, order)))}
          onAdd={() =>
            settle(
              note
                .cardCall(() => graphicApi.addCard({ taskId, after: at, text: '' }))
                .then((ok) => {
                  if (ok) setCurrent(at + 1);
                }),
            )
          }
          onRemove={(index) => settle(note.cardCall(() => graphicApi.removeCard(taskId, index)))}
        />
        {card ? <CardPanel key={card.id} card={card} note={note} taskId={taskId} /> : null}
      </div>
      {publishing ? (
        <Suspense fallback={null}>
          <PublishDialog
            open
            onClose={() => setPublishing(false)}
            graphicTaskId={taskId}
            initial={{ title: note.title.trim(), body: note.body, topics: note.tags, images: note.cards.map((c) => c.imageUrl) }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

export default function XhsEditorPage() {
  const [params] = useSearchParams();
  const taskId = params.get('taskId');
  const note = useGraphicNote(taskId);
  const info = note.info;

  let content: React.ReactNode;
  if (!taskId)
    content = (
      <Empty description="还没有选择图文">
        <Link to="/">去首页生成图文</Link>
      </Empty>
    );
  else if (info.isPending) content = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (info.isError)
    content = <Alert type="error" showIcon title="图文加载失败" description={info.error.message} action={<Button onClick={() => info.refetch()}>重试</Button>} />;
  else if (info.data.status === 'queued' || info.data.status === 'running') content = <GraphicStream taskId={taskId} onDone={() => settle(note.reload())} />;
  else if (info.data.status !== 'succeeded')
    content = <Alert type="error" showIcon title={info.data.errorMsg || '图文生成失败'} data-testid="graphic-failed" action={<Link to="/">返回首页</Link>} />;
  else content = <Editor taskId={taskId} note={note} />;

  return (
    <PageFrame testId="page-xhsEditor" title="小红书图文编辑">
      {content}
    </PageFrame>
  );
}
