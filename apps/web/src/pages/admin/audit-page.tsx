import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Input, Table, Tag } from 'antd';
import type { AdminAuditEntry } from '@inkstone/shared';
import { dateTime } from '../../features/vip/format';
import { adminApi, saveDownload, type AdminAuditQuery } from './admin-api';
import { pretty, ROLE_LABEL } from './format';

const PAGE_SIZE = 20;
type Filters = Omit<AdminAuditQuery, 'pageNum' | 'pageSize'>;

/** The append-only log: searchable and exportable, never editable (there is no edit route). */
export default function AuditPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'audit', filters, pageNum],
    queryFn: () => adminApi.audit({ ...filters, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const exportCsv = useMutation({ mutationFn: async () => saveDownload(await adminApi.auditCsv(filters), 'audit.csv') });
  const set = (patch: Filters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPageNum(1);
  };

  return (
    <div data-testid="admin-audit">
      <div className="admin-toolbar">
        <Input.Search allowClear placeholder="操作，如 order.refund" aria-label="操作" style={{ width: 220 }} onSearch={(v) => set({ action: v.trim() || undefined })} />
        <Input.Search
          allowClear
          placeholder="操作人ID"
          aria-label="操作人ID"
          style={{ width: 150 }}
          onSearch={(v) => set({ actor: /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined })}
        />
        <Input.Search allowClear placeholder="对象ID" aria-label="对象ID" style={{ width: 180 }} onSearch={(v) => set({ targetId: v.trim() || undefined })} />
        <DatePicker.RangePicker aria-label="时间" onChange={(range) => set({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })} />
        <Button data-testid="admin-audit-export" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
          导出 CSV
        </Button>
      </div>
      <Table<AdminAuditEntry>
        data-testid="admin-audit-table"
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        scroll={{ x: 960 }}
        expandable={{
          expandedRowRender: (e) => (
            <div className="admin-diff">
              <div>
                <strong>变更前</strong>
                <pre className="admin-json">{pretty(e.before)}</pre>
              </div>
              <div>
                <strong>变更后</strong>
                <pre className="admin-json">{pretty(e.after)}</pre>
              </div>
            </div>
          ),
        }}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
          {
            title: '操作人',
            key: 'actor',
            render: (_: unknown, e) =>
              e.actorId === null ? (
                <Tag>命令行</Tag>
              ) : (
                <>
                  {e.actorNickname ?? e.actorId}
                  {e.actorRole ? <Tag style={{ marginLeft: 6 }}>{ROLE_LABEL[e.actorRole]}</Tag> : null}
                </>
              ),
          },
          { title: '操作', dataIndex: 'action', render: (a: string) => <code>{a}</code> },
          { title: '对象', key: 'target', render: (_: unknown, e) => `${e.targetType}${e.targetId ? ` #${e.targetId}` : ''}` },
          { title: 'IP', dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
        ]}
      />
    </div>
  );
}
