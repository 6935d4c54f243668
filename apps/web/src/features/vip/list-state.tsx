import type { ReactNode } from 'react';
import { Alert, Button, Empty, Skeleton } from 'antd';

/** Loading, error (with retry) and empty states of a list query, then the list itself. */
export function ListState<T>(props: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: T[]; refetch: () => unknown };
  testId: string;
  what: string;
  emptyText?: string;
  children: (items: T[]) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending) return <Skeleton active paragraph={{ rows: 3 }} data-testid={`${props.testId}-loading`} />;
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid={`${props.testId}-error`}
        title={`${props.what}加载失败`}
        description={query.error instanceof Error ? query.error.message : '请稍后再试'}
        action={<Button onClick={() => void query.refetch()}>重试</Button>}
      />
    );
  }
  if (!query.data?.length) return <Empty data-testid={`${props.testId}-empty`} description={props.emptyText ?? `暂无${props.what}`} />;
  return <>{props.children(query.data)}</>;
}
