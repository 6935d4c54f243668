import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, List, Select, Skeleton, Tag } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { limits, formatTimeAgo } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { publishApi, type IntentComment } from '../../api/publish';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { toast } from '../../features/notifications/toasts';
import { AccountBadge, AccountStatus } from '../../features/publish/account-bits';
import { JobRow } from '../../features/publish/publish-progress';
import { formatDateTime } from '../../features/publish/format';
import '../../features/publish/publish.css';
import { queryKeys } from '../../api/query-keys';
import { pollWhile } from '../../features/polling/use-poll';
import { settle } from '../../api/request';

const INTENT_PAGE_SIZE = 10;
const HISTORY_SHOWN = 10;
const intentLabel: Record<string, { text: string; color: string }> = {
  purchase: { text: '购买意向', color: 'magenta' },
  contact: { text: '联系意向', color: 'blue' },
};

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.message('success', '已复制回复', 2);
  } catch {
    // Clipboard API needs a secure context or permission; the old way works on plain http too.
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    toast.message(ok ? 'success' : 'error', ok ? '已复制回复' : '复制失败，请手动复制', 2);
  }
}

function UnreadStats({ accountId }: { accountId: number }) {
  const unread = useQuery({
    queryKey: queryKeys.publish.accountUnread(accountId),
    queryFn: () => publishApi.unread(accountId),
    refetchInterval: limits.pollingIntervalMs,
    retry: false,
  });
  if (unread.isPending) return <Skeleton.Input active block />;
  if (unread.isError)
    return (
      <Alert
        type="warning"
        showIcon
        title="未读数加载失败"
        action={
          <Button size="small" onClick={() => unread.refetch()}>
            重试
          </Button>
        }
      />
    );
  const u = unread.data;
  if (u.unavailable) return <Alert type="info" showIcon title="消息通知暂不可用" description={u.unavailable} data-testid="board-unread-unavailable" />;
  const cells = [
    { label: '评论和@', value: u.mentions, id: 'mentions' },
    { label: '赞和收藏', value: u.likes, id: 'likes' },
    { label: '新增关注', value: u.connections, id: 'connections' },
    { label: '未读合计', value: u.unread_count, id: 'total' },
  ];
  return (
    <div className="stat-row" data-testid="board-unread">
      {cells.map((c) => (
        <div className="stat-card" key={c.id} data-testid={`unread-${c.id}`}>
          <span className="muted">{c.label}</span>
          <strong>{c.value}</strong>
        </div>
      ))}
    </div>
  );
}

/** The account's publish records from the server (whichever browser published them), polled while any is unfinished. */
function PublishHistory({ accountId }: { accountId: number }) {
  const [pageNum, setPageNum] = useState(1);
  useEffect(() => setPageNum(1), [accountId]);
  const list = useQuery({
    queryKey: queryKeys.publish.records(accountId, pageNum),
    queryFn: () => publishApi.records({ accountId, pageNum, pageSize: HISTORY_SHOWN }),
    refetchInterval: pollWhile((data) => !!data?.records.some((r) => r.status === 'queued' || r.status === 'running'), 5000),
    retry: false,
  });
  if (list.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (list.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="发布记录加载失败"
        description={list.error.message}
        action={
          <Button size="small" onClick={() => list.refetch()}>
            重试
          </Button>
        }
      />
    );
  if (!list.data.records.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该账号还没有发布记录" data-testid="board-history-empty" />;
  return (
    <List
      data-testid="board-history"
      dataSource={list.data.records}
      rowKey="jobId"
      pagination={{ current: pageNum, pageSize: HISTORY_SHOWN, total: list.data.total, onChange: setPageNum, hideOnSinglePage: true, size: 'small' }}
      renderItem={(r) => <JobRow job={{ ...r, accountName: `「${r.title || '无标题'}」 ${formatDateTime(r.createdAt)}` }} now={list.dataUpdatedAt} />}
    />
  );
}

function IntentComments({ accountId }: { accountId: number }) {
  const [pageNum, setPageNum] = useState(1);
  useEffect(() => setPageNum(1), [accountId]);
  const list = useQuery({
    queryKey: queryKeys.publish.intentComments(accountId, pageNum),
    queryFn: () => publishApi.intentComments({ accountId, pageNum, pageSize: INTENT_PAGE_SIZE }),
    refetchInterval: limits.pollingIntervalMs,
    retry: false,
  });
  if (list.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (list.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="评论加载失败"
        description={list.error.message}
        action={
          <Button size="small" onClick={() => list.refetch()}>
            重试
          </Button>
        }
      />
    );
  if (!list.data.records.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无有购买或联系意向的评论" data-testid="intent-empty" />;
  return (
    <List<IntentComment>
      data-testid="intent-comments"
      dataSource={list.data.records}
      rowKey="id"
      pagination={{ current: pageNum, pageSize: INTENT_PAGE_SIZE, total: list.data.total, onChange: setPageNum, hideOnSinglePage: true, size: 'small' }}
      renderItem={(c) => (
        <List.Item data-testid="intent-comment">
          <List.Item.Meta
            title={
              <span className="job-title">
                <strong>{c.author}</strong>
                {c.intents.map((i) => (
                  <Tag key={i} color={intentLabel[i]?.color}>
                    {intentLabel[i]?.text ?? i}
                  </Tag>
                ))}
                <span className="muted small">{formatTimeAgo(c.commentedAt)}</span>
              </span>
            }
            description={
              <>
                <p style={{ margin: '4px 0', color: '#222' }}>{c.content}</p>
                {c.noteTitle ? (
                  <p className="muted small">
                    来自笔记「{c.noteTitle}」 · 命中：{c.matched.join('、')}
                  </p>
                ) : null}
                <div className="reply-box">
                  <span>
                    <span className="muted small">建议回复：</span>
                    <span data-testid="suggested-reply">{c.suggestedReply}</span>
                  </span>
                  <Button size="small" onClick={() => settle(copyText(c.suggestedReply))} data-testid="copy-reply">
                    复制
                  </Button>
                </div>
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}

export default function OperationBoardPage() {
  const isLogin = useIsLogin();
  const { accountId: param } = useParams();
  const navigate = useNavigate();
  const accounts = useQuery({ queryKey: queryKeys.publish.accounts.unfiltered, queryFn: () => publishApi.list(), enabled: isLogin === true, retry: false });
  const records = useMemo(() => accounts.data?.records ?? [], [accounts.data]);
  const selected = records.find((a) => String(a.id) === param) ?? null;

  useEffect(() => {
    if (param || !records.length) return;
    // No account in the address (e.g. from a notification click): open the first usable one.
    const first = records.find((a) => a.status === 'active') ?? records[0]!;
    navigate(`/operationBoard/${first.id}`, { replace: true });
  }, [param, records, navigate]);

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看运营看板">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (accounts.isPending) {
    body = <Skeleton active avatar paragraph={{ rows: 4 }} data-testid="board-loading" />;
  } else if (accounts.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="board-error"
        title="账号加载失败"
        description={accounts.error.message}
        action={<Button onClick={() => accounts.refetch()}>重试</Button>}
      />
    );
  } else if (!records.length) {
    body = (
      <Empty data-testid="board-empty" description={`${param ? `账号 ${param} 不存在或已解绑。` : ''}绑定平台账号后，这里会显示评论、点赞与关注动态`}>
        <Link to="/accountManager">去绑定账号</Link>
      </Empty>
    );
  } else if (param && !selected) {
    body = <Empty data-testid="board-missing" description={`账号 ${param} 不存在或已解绑，请从上方选择其他账号`} />;
  } else if (selected) {
    body = (
      <>
        <div className="board-head">
          <AccountBadge account={selected} />
          <AccountStatus account={selected} />
          <span>粉丝 {selected.followerCount}</span>
          <span>笔记 {selected.noteCount}</span>
          <span className="muted">{selected.lastSyncedAt ? `同步于 ${formatTimeAgo(selected.lastSyncedAt)}` : '尚未同步'}</span>
          {selected.status === 'expired' ? <Link to="/accountManager">去重新绑定</Link> : null}
        </div>
        <UnreadStats accountId={selected.id} />
        <div className="board-grid">
          <Card title="意向评论" size="small">
            <IntentComments accountId={selected.id} />
          </Card>
          <Card title="发布记录" size="small">
            <PublishHistory accountId={selected.id} />
          </Card>
        </div>
      </>
    );
  } else {
    body = <Skeleton active />;
  }

  return (
    <PageFrame
      testId="page-operationBoard"
      title="运营看板"
      extra={
        records.length ? (
          <Select
            aria-label="选择账号"
            data-testid="board-account-select"
            style={{ minWidth: 200 }}
            value={selected?.id}
            placeholder="选择账号"
            onChange={(id: number) => navigate(`/operationBoard/${id}`)}
            options={records.map((a) => ({ value: a.id, label: `${a.accountName}${a.sandbox ? '（沙箱）' : ''} · ${a.platformName}` }))}
          />
        ) : null
      }
    >
      {body}
    </PageFrame>
  );
}
