import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Card, Segmented, Skeleton } from 'antd';
import { dataMetrics, type DataAccountRow, type DataMetric, type DataPoint } from '@inkstone/shared';
import { dataApi, type DataRangeParams } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { EChart } from './echart';
import { metricLabels } from './format';

type Mode = 'total' | 'accounts';

/**
 * Daily series of one metric: the total of the selected accounts, or one line per account (one series request per
 * account, each cached on its own key, so switching back and forth costs nothing).
 */
export function TrendChart(props: { range: DataRangeParams; accounts: DataAccountRow[] }) {
  const [metric, setMetric] = useState<DataMetric>('followers');
  const [mode, setMode] = useState<Mode>('total');
  const perAccount = mode === 'accounts' && !props.range.accountId && props.accounts.length > 1;
  const lines = perAccount
    ? props.accounts.map((a) => ({ name: a.accountName, q: { ...props.range, accountId: a.accountId, metric } }))
    : [{ name: '合计', q: { ...props.range, metric } }];
  const results = useQueries({
    queries: lines.map((l) => ({ queryKey: queryKeys.data.series(l.q), queryFn: () => dataApi.series(l.q), retry: false })),
  });
  const pending = results.some((r) => r.isPending);
  const failed = results.find((r) => r.isError);
  const datas = results.map((r) => r.data);

  // Rebuilt on each render: the card re-renders only when a query or a switch changes, which is when it must redraw.
  const option = (() => {
    const first = datas.find((d) => d);
    const dates = first?.points.map((p) => p.date) ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 48, right: 16, top: 32, bottom: 28 },
      xAxis: { type: 'category', data: dates, boundaryGap: false },
      yAxis: { type: 'value', minInterval: 1 },
      series: datas.map((d, i) => ({
        name: lines[i]?.name ?? '',
        type: 'line',
        smooth: true,
        connectNulls: false,
        showSymbol: dates.length <= 31,
        data: d?.points.map((p: DataPoint) => p[metric]) ?? [],
      })),
    };
  })();

  return (
    <Card
      title="趋势"
      size="small"
      className="data-panel"
      data-testid="data-trend"
      extra={
        props.accounts.length > 1 && !props.range.accountId ? (
          <Segmented size="small" value={mode} onChange={(v) => setMode(v as Mode)} options={[{ value: 'total', label: '合计' }, { value: 'accounts', label: '按账号' }]} />
        ) : null
      }
    >
      <Segmented
        value={metric}
        onChange={(v) => setMetric(v as DataMetric)}
        options={dataMetrics.map((m) => ({ value: m, label: metricLabels[m] }))}
        aria-label="指标"
        data-testid="data-metric"
        className="data-metric"
      />
      {failed?.isError ? (
        <Alert type="error" showIcon title="趋势数据加载失败" description={failed.error.message} action={<Button size="small" onClick={() => failed.refetch()}>重试</Button>} />
      ) : pending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <EChart option={option} height={300} testId="data-trend-chart" ariaLabel={`${metricLabels[metric]}趋势图`} />
      )}
    </Card>
  );
}
