import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Skeleton } from 'antd';
import { dataApi, type DataRangeParams } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { EChart } from './echart';
import { fmtNum, weekdayLabels } from './format';

const hours = Array.from({ length: 24 }, (_, h) => `${h}时`);

/** When past posts did best: average views by weekday x hour of publishing (Asia/Shanghai). */
export function Heatmap(props: { range: DataRangeParams }) {
  const heat = useQuery({ queryKey: queryKeys.data.heatmap(props.range), queryFn: () => dataApi.heatmap(props.range), retry: false });
  let body;
  if (heat.isPending) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (heat.isError)
    body = <Alert type="error" showIcon title="热力图加载失败" description={heat.error.message} action={<Button size="small" onClick={() => heat.refetch()}>重试</Button>} />;
  else if (!heat.data.cells.length) body = <Empty description="所选时间内没有发布内容，发布后这里会显示最佳发布时间" />;
  else {
    const { cells, best } = heat.data;
    const max = Math.max(1, ...cells.map((c) => c.avgViews));
    const option = {
      tooltip: {
        position: 'top',
        formatter: (p: { data: [number, number, number, number] }) =>
          `${weekdayLabels[p.data[1]] ?? ''} ${p.data[0]}时<br/>平均阅读 ${fmtNum(Math.round(p.data[2]))}（${p.data[3]} 篇）`,
      },
      grid: { left: 48, right: 16, top: 8, bottom: 64 },
      xAxis: { type: 'category', data: hours, splitArea: { show: true } },
      yAxis: { type: 'category', data: weekdayLabels, splitArea: { show: true } },
      visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0, itemHeight: 120 },
      series: [{ type: 'heatmap', data: cells.map((c) => [c.hour, c.weekday, c.avgViews, c.notes]), emphasis: { itemStyle: { borderColor: '#333', borderWidth: 1 } } }],
    };
    body = (
      <>
        {best ? (
          <p className="muted small" data-testid="data-heat-best">
            最佳发布时间：{weekdayLabels[best.weekday]} {best.hour}时（平均阅读 {fmtNum(Math.round(best.avgViews))}，{best.notes} 篇）
          </p>
        ) : null}
        <EChart option={option} height={280} testId="data-heat-chart" ariaLabel="发布时间热力图" />
      </>
    );
  }
  return (
    <Card title="发布时间热力图" size="small" className="data-panel" data-testid="data-heatmap">
      {body}
    </Card>
  );
}
