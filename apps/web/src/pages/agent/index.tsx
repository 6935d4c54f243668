import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, List, Modal, Popconfirm, Skeleton, Spin } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { agentLimits, type AgentMessage } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { agentApi } from '../../api/agent';
import { queryKeys } from '../../api/query-keys';
import { useIsLogin } from '../../stores/global';
import { ToolResultCard, toolLabel } from '../../features/agent/cards';
import { useAgentChat, type LiveTurn } from '../../features/agent/use-agent-chat';
import './agent.css';
import { settle } from '../../api/request';

/** Without a model the agent says so and offers the same work as guided flows (nothing labelled AI is made). */
function GuidedFlows({ reason }: { reason: string }) {
  return (
    <div data-testid="agent-unavailable">
      <Alert type="info" showIcon title="智能体暂不可用" description={reason} />
      <div className="agent-guided">
        <Link to="/" data-testid="agent-guide-write">
          写作：在首页输入主题开始写
        </Link>
        <Link to="/topic" data-testid="agent-guide-topic">
          选题：看热点与写作角度
        </Link>
        <Link to="/accountManager" data-testid="agent-guide-publish">
          发布：绑定账号，在编辑器里发布
        </Link>
      </div>
    </div>
  );
}

function Conversations({ current, onPick }: { current: number | null; onPick: (id: number | null) => void }) {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.agent.conversations, queryFn: agentApi.conversations });
  const [renaming, setRenaming] = useState<{ id: number; title: string } | null>(null);
  const refresh = () => {
    qc.invalidateQueries({ queryKey: queryKeys.agent.conversations });
  };
  return (
    <aside className="agent-conversations" data-testid="agent-conversations">
      <Button block onClick={() => onPick(null)} data-testid="agent-new">
        新对话
      </Button>
      {list.isPending ? (
        <Skeleton active />
      ) : (
        <List
          size="small"
          dataSource={list.data ?? []}
          locale={{ emptyText: '还没有对话' }}
          renderItem={(c) => (
            <List.Item
              key={c.id}
              className={c.id === current ? 'active' : undefined}
              data-testid="agent-conversation"
              actions={[
                <a key="r" onClick={() => setRenaming({ id: c.id, title: c.title })} data-testid="agent-rename">
                  重命名
                </a>,
                <Popconfirm
                  key="d"
                  title="删除这个对话？"
                  okText="删除"
                  cancelText="取消"
                  onConfirm={async () => {
                    await agentApi.remove(c.id);
                    if (c.id === current) onPick(null);
                    await refresh();
                  }}
                >
                  <a data-testid="agent-delete">删除</a>
                </Popconfirm>,
              ]}
            >
              <a onClick={() => onPick(c.id)} className="agent-conversation-title">
                {c.title}
              </a>
            </List.Item>
          )}
        />
      )}
      <Modal
        open={renaming !== null}
        title="重命名对话"
        okText="保存"
        cancelText="取消"
        onCancel={() => setRenaming(null)}
        onOk={async () => {
          if (!renaming) return;
          await agentApi.rename(renaming.id, renaming.title);
          setRenaming(null);
          await refresh();
        }}
      >
        <Input
          value={renaming?.title}
          maxLength={agentLimits.titleMax}
          onChange={(e) => setRenaming((r) => (r ? { ...r, title: e.target.value } : r))}
          data-testid="agent-rename-input"
        />
      </Modal>
    </aside>
  );
}

function Message({ m, chat }: { m: AgentMessage; chat: ReturnType<typeof useAgentChat> }) {
  if (m.role === 'user') return <div className="agent-msg agent-msg-user">{m.content}</div>;
  if (m.role === 'tool') {
    return (
      <div className="agent-msg agent-msg-tool" data-testid="agent-tool-result" data-tool={m.toolName ?? ''}>
        <ToolResultCard name={m.toolName} result={m.result} actions={chat.actions} busy={chat.busyAction} decide={(id, ok) => settle(chat.decide(id, ok))} />
      </div>
    );
  }
  return (
    <div className="agent-msg agent-msg-assistant" data-testid="agent-assistant">
      {m.reasoning ? <div className="agent-reasoning muted">思考：{m.reasoning}</div> : null}
      {m.content ? <div className="agent-text">{m.content}</div> : null}
      {m.toolCalls?.length ? <div className="muted small">调用工具：{m.toolCalls.map((c) => toolLabel(c.name)).join('、')}</div> : null}
    </div>
  );
}

function Live({ live }: { live: LiveTurn }) {
  if (live.error) return <Alert type="error" showIcon data-testid="agent-turn-error" title={live.error.msg} description={live.error.refunded ? '本轮积分已退还' : undefined} />;
  return (
    <div className="agent-msg agent-msg-assistant" data-testid="agent-live">
      {live.reasoning ? <div className="agent-reasoning muted">思考：{live.reasoning}</div> : null}
      {live.text ? <div className="agent-text">{live.text}</div> : null}
      <Spin size="small" /> <span className="muted small">{live.calling ? `正在${toolLabel(live.calling)}…` : '思考中…'}</span>
    </div>
  );
}

function Chat({ conversationId, setConversation }: { conversationId: number | null; setConversation: (id: number) => void }) {
  const chat = useAgentChat(conversationId, setConversation);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [params, setParams] = useSearchParams();
  const end = useRef<HTMLDivElement>(null);
  const submit = async (content: string) => {
    if (!content.trim() || sending) return;
    setSending(true);
    try {
      await chat.send(content.trim());
      setText('');
    } finally {
      setSending(false);
    }
  };
  // A goal typed on the agent home arrives as ?q=: sent once, then removed from the address.
  const q = params.get('q');
  useEffect(() => {
    if (!q) return;
    setParams({}, { replace: true });
    settle(submit(q));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);
  const messages = chat.detail.data?.messages ?? [];
  // Block body: newer Chromium returns a Promise from scrollIntoView, which React would take for the effect's cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, chat.live?.text]);
  const running = chat.live !== null && chat.live.error === null;
  return (
    <div className="agent-chat">
      <div className="agent-thread" data-testid="agent-thread">
        {conversationId === null && !running ? <Empty description="说出你的目标，比如：下周帮我给母婴号写三篇小红书，周三晚上8点发" /> : null}
        {messages.map((m) => (
          <Message key={m.id} m={m} chat={chat} />
        ))}
        {chat.live ? <Live live={chat.live} /> : null}
        <div ref={end} />
      </div>
      <div className="agent-input">
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={agentLimits.contentMax}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder="告诉智能体你想做什么"
          data-testid="agent-input"
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              settle(submit(text));
            }
          }}
        />
        <Button type="primary" loading={sending} disabled={running || !text.trim()} onClick={() => settle(submit(text))} data-testid="agent-send">
          发送
        </Button>
      </div>
    </div>
  );
}

export default function AgentPage() {
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const c = Number(params.get('c'));
  const conversationId = Number.isInteger(c) && c > 0 ? c : null;
  const status = useQuery({ queryKey: queryKeys.agent.status, queryFn: agentApi.status, enabled: isLogin === true });
  const pick = (id: number | null) => {
    navigate(id ? `/agent?c=${id}` : '/agent');
  };
  return (
    <PageFrame testId="page-agent" title="智能体">
      {isLogin !== true ? (
        <Alert type="info" showIcon title="登录后即可与智能体对话" />
      ) : status.isPending ? (
        <Skeleton active />
      ) : status.data && !status.data.available ? (
        <GuidedFlows reason="智能体需要配置AI模型，当前未配置。可以使用写作、选题、发布向导完成同样的事。" />
      ) : (
        <div className="agent-page">
          <Conversations current={conversationId} onPick={pick} />
          <Chat key={conversationId ?? 'new'} conversationId={conversationId} setConversation={(id) => navigate(`/agent?c=${id}`, { replace: true })} />
        </div>
      )}
    </PageFrame>
  );
}
