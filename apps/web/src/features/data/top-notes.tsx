import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, List, Segmented, Tag } from 'antd';
import { dataApi, type DataRangeParams } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { fmtNum, metricLabels } from './format';

type By = 'views' | 'likes' | 'collects' | 'comments' | 'shares';
const byOptions: By[] = ['views', 'likes', 'collects', 'comments', 'shares'];

/** The best notes published in the range by one metric. */
export function TopNotes(props: { range: DataRangeParams }) {
  const [by, setBy] = useState<By>('views');
  const q = { ...props.range, by, limit: 10 };
  const top = useQuery({ queryKey: queryKeys.data.top(q), queryFn: () => dataApi.top(q), retry: false });
  return (
    <Card title="热门内容" size="small" className="data-panel" data-testid="data-top">
      <Segmented size="small" value={by} onChange={(v) => setBy(v as By)} options={byOptions.map((b) => ({ value: b, label: metricLabels[b] }))} className="data-metric" />
      {top.isError ? (
        <Alert type="error" showIcon title="热门内容加载失败" action={<Button size="small" onClick={() => top.refetch()}>重试</Button>} />
      ) : (
        <List
          size="small"
          loading={top.isPending}
          dataSource={top.data?.notes ?? []}
          locale={{ emptyText: '所选时间内没有发布内容' }}
          renderItem={(n, i) => (
            <List.Item key={n.noteId} extra={<strong>{fmtNum(n[by])}</strong>} data-testid="data-top-item">
              <span>
                {i + 1}.{' '}
                {n.url ? (
                  <a href={n.url} target="_blank" rel="noreferrer">
                    {n.title || '（无标题）'}
                  </a>
                ) : (
                  n.title || '（无标题）'
                )}{' '}
                <Tag>{n.platformName}</Tag>
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
