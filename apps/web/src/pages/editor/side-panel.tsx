import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { Alert, Button, Collapse, Empty, List, Popconfirm, Tabs, Tag } from 'antd';
import type { DraftItem } from '@inkstone/shared';
import { writingApi } from '../../api/writing';
import { isGraphicDraft } from '../../features/graphic/draft-link';
import { useGlobalStore } from '../../stores/global';
import type { TaskStreamState } from '../../features/writing/task-stream';
import { queryKeys } from '../../api/query-keys';
import { AiTab } from './ai-tab';
import { settle } from '../../api/request';

export interface SidePanelProps {
  editor: Editor | null;
  stream: TaskStreamState | null;
  streaming: boolean;
  title: string;
  draftId: number | null;
  onTitle(t: string): void;
  saveNow(): Promise<number | null>;
  onOpenDraft(draft: DraftItem): void;
  onNewDraft(): void;
}

export function SidePanel(props: SidePanelProps) {
  const hasProcess = !!props.stream;
  return (
    <Tabs
      defaultActiveKey={hasProcess ? 'process' : 'ai'}
      items={[
        { key: 'ai', label: 'AI 助手', children: <AiTab {...props} /> },
        { key: 'process', label: '写作过程', children: <ProcessTab stream={props.stream} /> },
        { key: 'drafts', label: '草稿', children: <DraftsTab current={props.draftId} onOpen={props.onOpenDraft} onNew={props.onNewDraft} /> },
      ]}
    />
  );
}

const STAGE_LABEL: Record<string, string> = { search: '联网搜索', plan: '规划', write: '写作', review: '审阅', revise: '修改', finish: '完成' };

function ProcessTab({ stream }: { stream: TaskStreamState | null }) {
  if (!stream) return <Empty description="这篇草稿没有进行中的写作任务" />;
  return (
    <div className="process-tab" data-testid="process">
      <ol className="stage-list">
        {stream.stages.map((s, i) => (
          <li key={i}>
            <Tag>{STAGE_LABEL[s.stage] ?? s.stage}</Tag>
            {s.message}
          </li>
        ))}
      </ol>
      {stream.sources.length ? (
        <section data-testid="sources">
          <h4>参考来源</h4>
          <ol>
            {stream.sources.map((s) => (
              <li key={s.n}>
                <a href={s.url} target="_blank" rel="noopener noreferrer">
                  {s.title}
                </a>
                {s.siteName ? <span className="muted"> · {s.siteName}</span> : null}
                {/* A knowledge-library citation shows the passage it stands for; its link opens it at its page. */}
                {s.url.startsWith('/pdfDetail?') ? <p className="muted source-passage">{s.snippet.length > 160 ? `${s.snippet.slice(0, 160)}…` : s.snippet}</p> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {stream.reasoning ? <Collapse size="small" items={[{ key: 'r', label: '思考过程', children: <pre className="reasoning">{stream.reasoning}</pre> }]} /> : null}
      {stream.usage ? <p className="muted">消耗 {stream.usage.totalTokens} tokens</p> : null}
      {stream.error ? <Alert type="error" showIcon title={stream.error.msg} /> : null}
    </div>
  );
}

function DraftsTab({ current, onOpen, onNew }: { current: number | null; onOpen(draft: DraftItem): void; onNew(): void }) {
  const qc = useQueryClient();
  const drafts = useQuery({ queryKey: queryKeys.writing.drafts, queryFn: () => writingApi.drafts(), refetchInterval: 30_000 });
  useEffect(() => {
    if (drafts.data) useGlobalStore.setState({ draftList: drafts.data.records });
  }, [drafts.data]);
  const remove = async (id: number) => {
    try {
      await writingApi.deleteDraft(id);
      await qc.invalidateQueries({ queryKey: queryKeys.writing.drafts });
      if (id === current) onNew();
    } catch {
      // the request layer has told the user
    }
  };
  if (drafts.isError)
    return (
      <Alert
        type="error"
        title="草稿列表加载失败"
        action={
          <Button size="small" onClick={() => drafts.refetch()}>
            重试
          </Button>
        }
      />
    );
  return (
    <div data-testid="drafts">
      <Button size="small" onClick={onNew} style={{ marginBottom: 8 }}>
        新建草稿
      </Button>
      <List
        size="small"
        loading={drafts.isLoading}
        dataSource={drafts.data?.records ?? []}
        locale={{ emptyText: '还没有草稿' }}
        renderItem={(d) => (
          <List.Item
            className={d.id === current ? 'draft-current' : undefined}
            actions={[
              <Popconfirm key="del" title="删除这篇草稿？" onConfirm={() => settle(remove(d.id))}>
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>,
            ]}
          >
            <button type="button" className="link-button" onClick={() => onOpen(d)} data-testid={`draft-${d.id}`}>
              {isGraphicDraft(d) ? (
                <Tag color="red" data-testid="draft-graphic-mark">
                  图文
                </Tag>
              ) : null}
              <strong>{d.title || '未命名草稿'}</strong>
              <div className="muted">{d.summary.slice(0, 40)}</div>
            </button>
          </List.Item>
        )}
      />
    </div>
  );
}
