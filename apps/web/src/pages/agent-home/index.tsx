import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, List, Skeleton } from 'antd';
import { Link, useNavigate } from 'react-router';
import { agentLimits } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { agentApi } from '../../api/agent';
import { topicApi } from '../../api/topic';
import { writingApi } from '../../api/writing';
import { queryKeys } from '../../api/query-keys';
import '../agent/agent.css';

/** The agent-state home: the agent's input first, then recent conversations, today's topics and drafts to finish. */
export default function AgentHomePage() {
  const navigate = useNavigate();
  const [goal, setGoal] = useState('');
  const status = useQuery({ queryKey: queryKeys.agent.status, queryFn: agentApi.status });
  const conversations = useQuery({ queryKey: queryKeys.agent.conversations, queryFn: agentApi.conversations });
  const topics = useQuery({ queryKey: queryKeys.topic.hot('', '', '', 1), queryFn: () => topicApi.hot({ pageNum: 1, pageSize: 5 }) });
  const drafts = useQuery({ queryKey: queryKeys.agent.homeDrafts, queryFn: () => writingApi.drafts(1, 5) });
  const start = () => {
    if (goal.trim()) navigate(`/agent?q=${encodeURIComponent(goal.trim())}`);
  };
  return (
    <PageFrame testId="page-agentHome" title="智能体工作台">
      <Card className="agent-home-input">
        {status.data && !status.data.available ? (
          <Alert
            type="info"
            showIcon
            data-testid="agent-unavailable"
            title="智能体需要配置AI模型，当前未配置"
            description={
              <>
                可以使用向导：<Link to="/topic">选题</Link> · <Link to="/accountManager">发布账号</Link> · <Link to="/knowledge">知识库</Link>
              </>
            }
          />
        ) : (
          <div className="agent-input">
            <Input.TextArea
              value={goal}
              onChange={(e) => setGoal(e.target.value)}
              maxLength={agentLimits.contentMax}
              autoSize={{ minRows: 2, maxRows: 5 }}
              placeholder="说出你的目标，比如：下周帮我给母婴号写三篇小红书，周三晚上8点发"
              data-testid="agent-home-input"
              onPressEnter={(e) => {
                if (!e.shiftKey) {
                  e.preventDefault();
                  start();
                }
              }}
            />
            <Button type="primary" disabled={!goal.trim()} onClick={start} data-testid="agent-home-send">
              开始
            </Button>
          </div>
        )}
      </Card>
      <div className="agent-home-grid">
        <Card size="small" title="最近对话" extra={<Link to="/agent">全部</Link>} data-testid="agent-home-conversations">
          {conversations.isPending ? (
            <Skeleton active />
          ) : (
            <List
              size="small"
              dataSource={(conversations.data ?? []).slice(0, 5)}
              locale={{ emptyText: '还没有对话' }}
              renderItem={(c) => (
                <List.Item key={c.id}>
                  <Link to={`/agent?c=${c.id}`}>{c.title}</Link>
                </List.Item>
              )}
            />
          )}
        </Card>
        <Card size="small" title="今日选题" extra={<Link to="/topic">更多</Link>} data-testid="agent-home-topics">
          {topics.isPending ? (
            <Skeleton active />
          ) : (
            <List size="small" dataSource={topics.data?.records ?? []} locale={{ emptyText: '暂时没有热点' }} renderItem={(t) => <List.Item key={t.id}>{t.title}</List.Item>} />
          )}
        </Card>
        <Card size="small" title="待完成草稿" data-testid="agent-home-drafts">
          {drafts.isPending ? (
            <Skeleton active />
          ) : (
            <List
              size="small"
              dataSource={drafts.data?.records ?? []}
              locale={{ emptyText: '没有草稿' }}
              renderItem={(d) => (
                <List.Item key={d.id}>
                  <Link to={`/editor?draftId=${d.id}`}>{d.title || '未命名草稿'}</Link>
                </List.Item>
              )}
            />
          )}
        </Card>
      </div>
      <p className="muted">
        <Link to="/operationBoard">打开运营看板</Link>
      </p>
    </PageFrame>
  );
}
