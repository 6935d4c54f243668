import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { adminRoleAtLeast, codeKindLabels, type AdminCodeBatch, type AdminRedemption } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime } from '../../features/vip/format';
import { adminApi, saveDownload } from './admin-api';

const PAGE_SIZE = 20;

export default function CodesPage({ me }: { me: AdminMe }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [batch, setBatch] = useState<string | undefined>();
  const [usesPage, setUsesPage] = useState(1);
  const [generating, setGenerating] = useState(false);
  const canWrite = adminRoleAtLeast(me.role, 'operator');
  const batches = useQuery({ queryKey: ['admin', 'codes', pageNum], queryFn: () => adminApi.codeBatches(pageNum, PAGE_SIZE), placeholderData: keepPreviousData, retry: false });
  const uses = useQuery({
    queryKey: ['admin', 'codes', 'uses', batch, usesPage],
    queryFn: () => adminApi.redemptions({ batch, pageNum: usesPage, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const disable = useMutation({
    mutationFn: (b: string) => adminApi.disableCodes(b),
    onSuccess: async () => {
      message.success('已停用');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] });
    },
  });
  const download = useMutation({ mutationFn: async (b: string) => saveDownload(await adminApi.codesCsv(b), `${b}.csv`) });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="admin-codes">
      <Card title="兑换码批次" extra={canWrite ? <Button onClick={() => setGenerating(true)}>生成兑换码</Button> : null}>
        <Table<AdminCodeBatch>
          rowKey="batch"
          size="small"
          loading={batches.isFetching}
          dataSource={batches.data?.records ?? []}
          pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: batches.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
          columns={[
            { title: '批次', dataIndex: 'batch', render: (b: string) => <a onClick={() => setBatch(b)}>{b}</a> },
            { title: '类型', dataIndex: 'kind', render: (k: AdminCodeBatch['kind'], r) => `${codeKindLabels[k]} ${r.value}` },
            { title: '数量', dataIndex: 'codes' },
            { title: '已兑换', dataIndex: 'used' },
            { title: '每码次数', dataIndex: 'maxUses' },
            { title: '过期时间', dataIndex: 'expiresAt', render: (t: string | null) => dateTime(t) },
            { title: '状态', dataIndex: 'disabled', render: (d: boolean) => (d ? <Tag>已停用</Tag> : <Tag color="green">可用</Tag>) },
            {
              title: '',
              key: 'op',
              render: (_: unknown, r) =>
                canWrite ? (
                  <Space>
                    <Button size="small" onClick={() => download.mutate(r.batch)}>
                      导出
                    </Button>
                    {!r.disabled ? (
                      <Button size="small" danger onClick={() => disable.mutate(r.batch)}>
                        停用
                      </Button>
                    ) : null}
                  </Space>
                ) : null,
            },
          ]}
        />
      </Card>
      <Card title={batch ? `兑换记录：${batch}` : '兑换记录'} extra={batch ? <Button onClick={() => setBatch(undefined)}>全部批次</Button> : null}>
        <Table<AdminRedemption>
          rowKey={(r) => `${r.code}:${r.userId}`}
          size="small"
          loading={uses.isFetching}
          dataSource={uses.data?.records ?? []}
          pagination={{ current: usesPage, pageSize: PAGE_SIZE, total: uses.data?.total ?? 0, onChange: setUsesPage, showSizeChanger: false }}
          columns={[
            { title: '兑换码', dataIndex: 'code', render: (c: string) => <code>{c}</code> },
            { title: '批次', dataIndex: 'batch' },
            { title: '用户', key: 'user', render: (_: unknown, r) => `${r.nickname}（${r.userId}）` },
            { title: '内容', key: 'value', render: (_: unknown, r) => `${codeKindLabels[r.kind]} ${r.value}` },
            { title: '兑换时间', dataIndex: 'redeemedAt', render: (t: string) => dateTime(t) },
          ]}
        />
      </Card>
      {generating ? <GenerateModal onClose={() => setGenerating(false)} /> : null}
    </Space>
  );
}

interface GenerateForm {
  kind: 'points' | 'vip_days';
  value: number;
  count: number;
  maxUses: number;
  expiresAt?: Dayjs | null;
  batch?: string;
}

function GenerateModal({ onClose }: { onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<GenerateForm>();
  const generate = useMutation({
    mutationFn: (v: GenerateForm) =>
      adminApi.generateCodes({
        kind: v.kind,
        value: v.value,
        count: v.count,
        maxUses: v.maxUses,
        expiresAt: v.expiresAt ? v.expiresAt.endOf('day').toISOString() : undefined,
        batch: v.batch?.trim() || undefined,
      }),
    onSuccess: async (b) => {
      message.success(`已生成批次 ${b.batch}（${b.codes} 个），可在列表中导出`);
      await queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] });
      onClose();
    },
  });
  return (
    <Modal open title="生成兑换码" okText="生成" confirmLoading={generate.isPending} onOk={() => form.submit()} onCancel={onClose}>
      <Form<GenerateForm> form={form} layout="vertical" initialValues={{ kind: 'points', value: 100, count: 10, maxUses: 1 }} onFinish={(v) => generate.mutate(v)}>
        <Form.Item name="kind" label="类型">
          <Select
            options={[
              { value: 'points', label: '积分' },
              { value: 'vip_days', label: '会员天数' },
            ]}
          />
        </Form.Item>
        <Form.Item name="value" label="面值（积分数或天数）" rules={[{ required: true, message: '请填写面值' }]}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="count" label="数量" rules={[{ required: true, message: '请填写数量' }]}>
          <InputNumber min={1} max={10000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="maxUses" label="每个码可兑换次数（每人一次）">
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expiresAt" label="过期日期（当天结束失效，留空不过期）">
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="batch" label="批次名（留空自动生成）" rules={[{ pattern: /^[\w-]{0,40}$/, message: '字母、数字、下划线或连字符' }]}>
          <Input maxLength={40} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
