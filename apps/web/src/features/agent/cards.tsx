import { Alert, Button, Card, List, Progress, Space, Tag } from 'antd';
import { Link } from 'react-router';
import type { AgentAction } from '@inkstone/shared';
import { useTaskStream } from '../writing/use-task-stream';
import { xhsEditorPath } from '../graphic/use-graphic-start';

type Result = Record<string, unknown>;
const arr = <T,>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const toolLabels: Record<string, string> = {
  hot_topics: '查找热点',
  topic_angles: '生成写作角度',
  knowledge_search: '检索知识库',
  write_article: '写文章',
  write_graphic: '生成图文',
  list_accounts: '查看账号',
  schedule_publish: '安排发布',
  unbind_account: '解绑账号',
};
export const toolLabel = (name: string | null | undefined) => (name ? (toolLabels[name] ?? name) : '工具');

/** A writing task the agent started: streams like the home page's, and opens in its editor. */
export function TaskCard({ taskId, kind }: { taskId: string; kind: 'article' | 'graphic' }) {
  const s = useTaskStream(taskId);
  const done = s?.status === 'done';
  const href = kind === 'graphic' ? xhsEditorPath(taskId) : `/editor?taskId=${encodeURIComponent(taskId)}`;
  return (
    <Card size="small" className="agent-card" data-testid="agent-task-card" data-status={s?.status ?? 'connecting'} title={kind === 'graphic' ? '图文生成任务' : '写作任务'}>
      {s?.error ? <Alert type="error" showIcon title={s.error.msg} /> : <Progress percent={Math.round(s?.percent ?? 0)} size="small" status={done ? 'success' : 'active'} />}
      {s?.title ? <strong data-testid="agent-task-title">{s.title}</strong> : null}
      <div className="agent-task-text muted" data-testid="agent-task-text">
        {(s?.text ?? '').slice(-240) || s?.message || '排队中…'}
      </div>
      <Link to={href} data-testid="agent-task-open">
        打开编辑
      </Link>
    </Card>
  );
}

/** What the agent proposes and only the user's click carries out. */
export function ActionCard(props: { action: AgentAction; busy: boolean; onConfirm: () => void; onReject: () => void }) {
  const a = props.action;
  const state: Record<AgentAction['status'], { text: string; color: string }> = {
    pending: { text: '待确认', color: 'gold' },
    confirming: { text: '执行中', color: 'blue' },
    confirmed: { text: '已执行', color: 'green' },
    rejected: { text: '已取消', color: 'default' },
    failed: { text: '失败', color: 'red' },
  };
  return (
    <Card size="small" className="agent-card agent-action" data-testid="agent-action-card" data-status={a.status} title="需要你确认">
      <p data-testid="agent-action-summary">{a.summary}</p>
      <Space>
        <Tag color={state[a.status].color}>{state[a.status].text}</Tag>
        {a.status === 'pending' ? (
          <>
            <Button type="primary" size="small" loading={props.busy} onClick={props.onConfirm} data-testid="agent-confirm">
              确认
            </Button>
            <Button size="small" disabled={props.busy} onClick={props.onReject} data-testid="agent-reject">
              取消
            </Button>
          </>
        ) : null}
      </Space>
      {a.error && a.status === 'pending' ? <Alert type="warning" showIcon title={a.error} /> : null}
      {a.status === 'confirmed' ? <ConfirmedResult action={a} /> : null}
    </Card>
  );
}

/** What a confirmed action produced: the task it started, or the angles it paid for. */
function ConfirmedResult({ action }: { action: AgentAction }) {
  const r = action.result ?? {};
  if (action.kind === 'write' && typeof r.taskId === 'string') return <TaskCard taskId={r.taskId} kind={r.kind === 'graphic' ? 'graphic' : 'article'} />;
  if (action.kind === 'angles') return <AnglesCard result={r} />;
  return null;
}

function AnglesCard({ result: r }: { result: Result }) {
  return (
    <Card size="small" className="agent-card" data-testid="agent-angles-card" title={`写作角度：${str(r.subject)}`}>
      {r.isAi === false ? <Tag>模板角度（非AI）</Tag> : null}
      <List size="small" dataSource={arr<{ title: string; angle: string }>(r.angles)} renderItem={(t, i) => <List.Item key={i}>{t.title}</List.Item>} />
    </Card>
  );
}

/** A tool's result as the page shows it (the model read the same data as JSON). */
export function ToolResultCard(props: {
  name: string | null;
  result: Result | null;
  actions: Map<string, AgentAction>;
  busy: string | null;
  decide: (id: string, ok: boolean) => void;
}) {
  const r = props.result ?? {};
  if (r.ok === false) return <Alert type="warning" showIcon data-testid="agent-tool-refused" title={`${toolLabel(props.name)}：${str(r.error)}`} />;
  switch (r.kind) {
    case 'article':
    case 'graphic':
      return <TaskCard taskId={str(r.taskId)} kind={r.kind} />;
    case 'action': {
      const a = props.actions.get(str(r.actionId));
      return a ? (
        <ActionCard action={a} busy={props.busy === a.actionId} onConfirm={() => props.decide(a.actionId, true)} onReject={() => props.decide(a.actionId, false)} />
      ) : null;
    }
    case 'topics':
      return (
        <Card size="small" className="agent-card" data-testid="agent-topics-card" title="热点选题">
          <List
            size="small"
            dataSource={arr<{ id: number; title: string }>(r.items)}
            renderItem={(t) => <List.Item key={t.id}>{t.title}</List.Item>}
            locale={{ emptyText: '暂时没有匹配的热点' }}
          />
        </Card>
      );
    case 'angles':
      return <AnglesCard result={r} />;
    case 'knowledge':
      return (
        <Card size="small" className="agent-card" title={`知识库：${str(r.query)}`}>
          <List
            size="small"
            dataSource={arr<{ docName: string; text: string }>(r.hits)}
            renderItem={(h, i) => <List.Item key={i}>{`${h.docName}：${h.text.slice(0, 80)}`}</List.Item>}
            locale={{ emptyText: '没有找到相关内容' }}
          />
        </Card>
      );
    case 'accounts':
      return (
        <Card size="small" className="agent-card" data-testid="agent-accounts-card" title="已绑定账号">
          <List
            size="small"
            dataSource={arr<{ accountId: number; name: string; platform: string; followers: number; sandbox: boolean }>(r.accounts)}
            renderItem={(a) => (
              <List.Item key={a.accountId}>
                {a.name} · {a.platform}
                {a.sandbox ? <Tag>沙箱</Tag> : null} · 粉丝 {a.followers}
              </List.Item>
            )}
            locale={{ emptyText: '还没有绑定账号' }}
          />
        </Card>
      );
    default:
      return null;
  }
}
