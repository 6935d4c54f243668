import { Table, Tag } from 'antd';
import type { DataAccountRow } from '@inkstone/shared';
import { fmtDateTime, fmtNum } from './format';

const signed = (n: number) => (n > 0 ? `+${fmtNum(n)}` : fmtNum(n));

/** Per-account comparison over the range. */
export function AccountsTable({ rows, loading }: { rows: DataAccountRow[]; loading: boolean }) {
  return (
    <Table<DataAccountRow>
      size="small"
      rowKey="accountId"
      loading={loading}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid="data-accounts"
      locale={{ emptyText: '暂无账号' }}
      columns={[
        {
          title: '账号',
          key: 'name',
          fixed: 'left',
          render: (_, a) => (
            <span>
              {a.accountName} <Tag>{a.platformName}</Tag>
              {a.sandbox ? <Tag color="purple">沙箱</Tag> : null}
              {a.status === 'expired' ? <Tag color="red">已失效</Tag> : null}
              {!a.statsSupported ? <Tag>不支持数据</Tag> : null}
            </span>
          ),
        },
        { title: '关注', key: 'f', align: 'right', sorter: (a, b) => a.followCount - b.followCount, render: (_, a) => `${fmtNum(a.followCount)}（${signed(a.followIncrease)}）` },
        { title: '阅读', key: 'r', align: 'right', sorter: (a, b) => a.readCount - b.readCount, render: (_, a) => `${fmtNum(a.readCount)}（${signed(a.readIncrease)}）` },
        { title: '发文', key: 'n', align: 'right', render: (_, a) => `${fmtNum(a.articleCount)}（${signed(a.articleIncrease)}）` },
        { title: '新增点赞', dataIndex: 'likeIncrease', align: 'right', sorter: (a, b) => a.likeIncrease - b.likeIncrease, render: fmtNum },
        { title: '新增收藏', dataIndex: 'collectIncrease', align: 'right', render: fmtNum },
        { title: '新增评论', dataIndex: 'commentIncrease', align: 'right', render: fmtNum },
        { title: '新增分享', dataIndex: 'shareIncrease', align: 'right', render: fmtNum },
        { title: '最近同步', dataIndex: 'lastSnapshotAt', render: (v: string | null) => (v ? fmtDateTime(v) : '尚未同步') },
      ]}
    />
  );
}
