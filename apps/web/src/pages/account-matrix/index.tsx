import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Segmented, Skeleton, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { formatTimeAgo } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { publishApi, type BoundAccount } from '../../api/publish';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { AccountBadge, AccountStatus } from '../../features/publish/account-bits';
import { formatDateTime } from '../../features/publish/format';
import { usePlatforms } from '../../features/publish/platforms';
import '../../features/publish/publish.css';
import { queryKeys } from '../../api/query-keys';

const columns: ColumnsType<BoundAccount> = [
  { title: '账号', key: 'account', render: (_v, a) => <AccountBadge account={a} size={32} />, fixed: 'left' },
  { title: '粉丝数', dataIndex: 'followerCount', sorter: (a, b) => a.followerCount - b.followerCount, align: 'right' },
  { title: '笔记数', dataIndex: 'noteCount', sorter: (a, b) => a.noteCount - b.noteCount, align: 'right' },
  { title: '状态', key: 'status', render: (_v, a) => <AccountStatus account={a} /> },
  {
    title: '最近同步',
    dataIndex: 'lastSyncedAt',
    render: (v: string | null) => (v ? <span title={formatDateTime(v)}>{formatTimeAgo(v)}</span> : <span className="muted">尚未同步</span>),
  },
  { title: '绑定时间', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
];

export default function AccountMatrixPage() {
  const isLogin = useIsLogin();
  const [platform, setPlatform] = useState('');
  const list = useQuery({ queryKey: queryKeys.publish.accounts.unfiltered, queryFn: () => publishApi.list(), enabled: isLogin === true, retry: false });

  const records = useMemo(() => list.data?.records ?? [], [list.data]);
  const shown = platform ? records.filter((a) => a.platform === platform) : records;
  const totals = useMemo(
    () => ({
      accounts: records.length,
      followers: records.reduce((s, a) => s + a.followerCount, 0),
      notes: records.reduce((s, a) => s + a.noteCount, 0),
      expired: records.filter((a) => a.status === 'expired').length,
    }),
    [records],
  );
  const offered = usePlatforms().platforms;
  const platforms = [
    { value: '', label: '全部平台' },
    ...offered.filter((o) => records.some((a) => a.platform === o.platform)).map((o) => ({ value: o.platform, label: o.platformName })),
  ];

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看账号矩阵">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (list.isPending) {
    body = <Skeleton active paragraph={{ rows: 5 }} data-testid="matrix-loading" />;
  } else if (list.isError) {
    body = (
      <Alert type="error" showIcon data-testid="matrix-error" title="账号加载失败" description={list.error.message} action={<Button onClick={() => list.refetch()}>重试</Button>} />
    );
  } else if (!records.length) {
    body = (
      <Empty data-testid="matrix-empty" description="还没有绑定账号">
        <Link to="/accountManager">去绑定账号</Link>
      </Empty>
    );
  } else {
    body = (
      <>
        <div className="stat-row" data-testid="matrix-totals">
          <div className="stat-card">
            <span className="muted">账号</span>
            <strong>{totals.accounts}</strong>
          </div>
          <div className="stat-card">
            <span className="muted">粉丝总数</span>
            <strong>{totals.followers}</strong>
          </div>
          <div className="stat-card">
            <span className="muted">笔记总数</span>
            <strong>{totals.notes}</strong>
          </div>
          <div className="stat-card">
            <span className="muted">状态失效</span>
            <strong>{totals.expired}</strong>
          </div>
        </div>
        {platforms.length > 2 ? <Segmented value={platform} options={platforms} onChange={(v) => setPlatform(String(v))} style={{ marginBottom: 12 }} /> : null}
        <Table<BoundAccount>
          data-testid="matrix-table"
          rowKey="id"
          columns={columns}
          dataSource={shown}
          pagination={shown.length > 20 ? { pageSize: 20 } : false}
          scroll={{ x: 760 }}
          size="middle"
        />
      </>
    );
  }

  return (
    <PageFrame
      testId="page-accountMatrix"
      title="账号矩阵"
      extra={
        isLogin === true ? (
          <Button onClick={() => list.refetch()} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
        ) : null
      }
    >
      {body}
    </PageFrame>
  );
}
