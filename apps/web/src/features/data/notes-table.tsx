import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Table, Tag, type TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { Link } from 'react-router';
import { dataNoteSorts, type DataNoteRow } from '@inkstone/shared';
import { dataApi, type DataNotesParams, type DataRangeParams } from '../../api/data';
import { queryKeys } from '../../api/query-keys';
import { usePlatforms } from '../publish/platforms';
import { ExportButton } from './export';
import { fmtDateTime, fmtNum } from './format';

type Sort = (typeof dataNoteSorts)[number];
const isSort = (k: unknown): k is Sort => typeof k === 'string' && (dataNoteSorts as readonly string[]).includes(k);

/** The content table: sorting, the platform filter, the title search and paging all happen on the server. */
export function NotesTable(props: { range: DataRangeParams }) {
  const { platforms } = usePlatforms();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [sort, setSort] = useState<Sort>('publishedAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [platform, setPlatform] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const accountId = props.range.accountId;

  const params = {
    page,
    size,
    sort,
    order,
    ...(platform ? { platform } : {}),
    ...(accountId ? { accountId } : {}),
    ...(q ? { q } : {}),
  } as DataNotesParams;
  const notes = useQuery({ queryKey: queryKeys.data.notes(params), queryFn: () => dataApi.notes(params), retry: false, placeholderData: keepPreviousData });

  const sortOrder = (key: Sort): SortOrder => (sort === key ? (order === 'asc' ? 'ascend' : 'descend') : null);
  const onChange: TableProps<DataNoteRow>['onChange'] = (pg, filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    if (s?.order && isSort(s.columnKey)) {
      setSort(s.columnKey);
      setOrder(s.order === 'ascend' ? 'asc' : 'desc');
    } else {
      setSort('publishedAt');
      setOrder('desc');
    }
    const p = filters.platform?.[0];
    setPlatform(typeof p === 'string' ? p : null);
    setPage(pg.current ?? 1);
    setSize(pg.pageSize ?? 20);
  };
  const num = (key: Sort, title: string) => ({
    title,
    key,
    dataIndex: key,
    align: 'right' as const,
    sorter: true,
    sortOrder: sortOrder(key),
    render: (v: number) => fmtNum(v),
  });

  const exportParams = { ...props.range, kind: 'notes' as const, ...(platform ? { platform } : {}), ...(q ? { q } : {}) };
  return (
    <Card
      title="内容数据"
      size="small"
      className="data-panel"
      data-testid="data-notes"
      extra={<ExportButton params={exportParams} label="导出 CSV" testId="data-export-notes" />}
    >
      <div className="toolbar">
        <Input.Search
          placeholder="搜索标题"
          allowClear
          maxLength={100}
          onSearch={(v) => {
            setQ(v.trim());
            setPage(1);
          }}
          style={{ maxWidth: 260 }}
          aria-label="搜索标题"
          data-testid="data-notes-search"
        />
      </div>
      {notes.isError ? (
        <Alert type="error" showIcon title="内容数据加载失败" description={notes.error.message} action={<Button size="small" onClick={() => notes.refetch()}>重试</Button>} />
      ) : (
        <Table<DataNoteRow>
          size="small"
          rowKey="noteId"
          loading={notes.isFetching}
          dataSource={notes.data?.records ?? []}
          onChange={onChange}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: '暂无已发布内容的数据' }}
          pagination={{ current: page, pageSize: size, total: notes.data?.total ?? 0, showSizeChanger: true, showTotal: (t) => `共 ${t} 篇` }}
          columns={[
            {
              title: '标题',
              key: 'title',
              fixed: 'left',
              width: 260,
              render: (_, n) => (
                <div className="data-note-title">
                  {n.url ? (
                    <a href={n.url} target="_blank" rel="noreferrer" data-testid="data-note-link">
                      {n.title || '（无标题）'}
                    </a>
                  ) : (
                    <span>{n.title || '（无标题）'}</span>
                  )}
                  {n.draftId ? (
                    <Link to={`/editor?draftId=${n.draftId}`} className="small" data-testid="data-note-draft">
                      {' '}
                      草稿
                    </Link>
                  ) : null}
                </div>
              ),
            },
            {
              title: '平台',
              key: 'platform',
              dataIndex: 'platform',
              filters: platforms.map((p) => ({ text: p.platformName, value: p.platform })),
              filterMultiple: false,
              filteredValue: platform ? [platform] : null,
              render: (_, n) => <Tag>{n.platformName}</Tag>,
            },
            { title: '账号', dataIndex: 'accountName', key: 'accountName' },
            { title: '发布时间', key: 'publishedAt', dataIndex: 'publishedAt', sorter: true, sortOrder: sortOrder('publishedAt'), render: (v: string) => fmtDateTime(v) },
            num('views', '阅读'),
            num('likes', '点赞'),
            num('collects', '收藏'),
            num('comments', '评论'),
            num('shares', '分享'),
            { title: '数据日期', dataIndex: 'asOf', key: 'asOf' },
          ]}
        />
      )}
    </Card>
  );
}
