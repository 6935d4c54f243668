import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { EChartProps } from './echart-core';

/** ECharts loads with the first chart shown, never with the home bundle. */
const EChartCore = lazy(() => import('./echart-core'));

export function EChart(props: EChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height }} />}>
      <EChartCore {...props} />
    </Suspense>
  );
}
