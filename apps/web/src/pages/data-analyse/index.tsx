import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Skeleton } from 'antd';
import { PageFrame } from '../../components/page-frame';
import { dataApi } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { BindModal } from '../../features/publish/bind-modal';
import { DataFilters, initialFilter, toRangeParams, type DataFilter } from '../../features/data/filters';
import { NoAccount, NoData } from '../../features/data/empty-states';
import { OverviewCards, PlatformSplit } from '../../features/data/overview-cards';
import { RefreshButton } from '../../features/data/refresh';
import { TrendChart } from '../../features/data/trend';
import { AccountsTable } from '../../features/data/accounts-table';
import { fmtDateTime } from '../../features/data/format';
import { NotesTable } from '../../features/data/notes-table';
import { Heatmap } from '../../features/data/heatmap';
import { TopNotes } from '../../features/data/top-notes';
import { ExportButton, ReportButton } from '../../features/data/export';
import '../../features/publish/publish.css';
import '../../features/data/data.css';

const TEST_ID = 'page-dataAnalyse';

export default function DataAnalysePage() {
  const isLogin = useIsLogin();
  const qc = useQueryClient();
  const [filter, setFilter] = useState<DataFilter>(initialFilter);
  const [binding, setBinding] = useState(false);
  const range = toRangeParams(filter);
  // The account list feeds the filter itself, so it is asked for every account whatever the filter says.
  const { accountId: _ignored, ...allAccounts } = range;
  const on = isLogin === true;

  const overview = useQuery({ queryKey: queryKeys.data.overview(range), queryFn: () => dataApi.overview(range), enabled: on, retry: false });
  const accounts = useQuery({ queryKey: queryKeys.data.accounts(allAccounts), queryFn: () => dataApi.accounts(allAccounts), enabled: on, retry: false });
  const accountRows = accounts.data?.accounts ?? [];

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看数据分析">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (overview.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="data-loading" />;
  } else if (overview.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="data-error"
        title="数据加载失败"
        description={overview.error.message}
        action={<Button onClick={() => overview.refetch()}>重试</Button>}
      />
    );
  } else if (overview.data.state === 'noAccount') {
    body = <NoAccount onBind={() => setBinding(true)} />;
  } else if (overview.data.state === 'noData' && !filter.accountId) {
    body = <NoData accountCount={overview.data.accountCount} />;
  } else {
    const o = overview.data;
    body = (
      <>
        <DataFilters value={filter} onChange={setFilter} accounts={accountRows} />
        <p className="muted small data-meta" data-testid="data-meta">
          {o.range.from} 至 {o.range.to}（{o.range.days} 天）· 最近同步 {fmtDateTime(o.lastSnapshotAt)}
          {o.expiredAccounts > 0 ? ` · ${o.expiredAccounts} 个账号登录已失效，数据停在最后一次同步` : ''}
        </p>
        {o.state === 'noData' ? <Alert type="info" showIcon className="data-panel" title="该账号暂无数据，首份数据将在下次同步后出现" /> : null}
        <OverviewCards data={o} />
        <PlatformSplit rows={o.byPlatform} />
        <div className="toolbar">
          <ExportButton params={{ ...range, kind: 'series' }} label="导出每日数据 CSV" testId="data-export-series" />
          <ReportButton params={range} />
        </div>
        <TrendChart range={range} accounts={accountRows} />
        <Card title="账号对比" size="small" className="data-panel">
          {accounts.isError ? (
            <Alert
              type="error"
              showIcon
              title="账号数据加载失败"
              action={
                <Button size="small" onClick={() => accounts.refetch()}>
                  重试
                </Button>
              }
            />
          ) : (
            <AccountsTable rows={filter.accountId ? accountRows.filter((a) => a.accountId === filter.accountId) : accountRows} loading={accounts.isPending} />
          )}
        </Card>
        <NotesTable key={filter.accountId ?? 0} range={range} />
        <div className="data-grid-2">
          <Heatmap range={range} />
          <TopNotes range={range} />
        </div>
      </>
    );
  }

  // The empty states carry their own call to action; the header button is for a dashboard with figures.
  const state = overview.data?.state;
  const ready = on && (state === 'ready' || (state === 'noData' && filter.accountId !== null));
  return (
    <PageFrame testId={TEST_ID} title="数据分析" extra={ready ? <RefreshButton accountId={filter.accountId} /> : null}>
      {body}
      <BindModal
        open={binding}
        onClose={() => setBinding(false)}
        onBound={() => {
          qc.invalidateQueries({ queryKey: queryKeys.data.all });
          qc.invalidateQueries({ queryKey: queryKeys.publish.accounts.all });
        }}
      />
    </PageFrame>
  );
}
