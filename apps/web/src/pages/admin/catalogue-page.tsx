import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { adminRoleAtLeast, type AdminBundle, type AdminPlan, type AdminPointCostChange, type PointCost } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime, yuan } from '../../features/vip/format';
import { adminApi } from './admin-api';

type Editing = { kind: 'plan'; item: AdminPlan | null } | { kind: 'bundle'; item: AdminBundle | null } | { kind: 'cost'; item: PointCost } | null;

export default function CataloguePage({ me }: { me: AdminMe }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const data = useQuery({ queryKey: ['admin', 'catalogue'], queryFn: adminApi.catalogue, retry: false });
  const [editing, setEditing] = useState<Editing>(null);
  const canWrite = adminRoleAtLeast(me.role, 'operator');
  const withdraw = useMutation({
    mutationFn: (id: number) => adminApi.withdrawPointCost(id),
    onSuccess: async () => {
      message.success('已撤回');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalogue'] });
    },
  });
  const edit = (e: Editing) => (canWrite ? () => setEditing(e) : undefined);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="admin-catalogue">
      <Card title="会员套餐" extra={canWrite ? <Button onClick={edit({ kind: 'plan', item: null })}>新建套餐</Button> : null}>
        <Table<AdminPlan>
          rowKey="id"
          size="small"
          pagination={false}
          loading={data.isFetching}
          dataSource={data.data?.plans ?? []}
          onRow={(item) => ({ onClick: edit({ kind: 'plan', item }) })}
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: '名称', dataIndex: 'name' },
            { title: '时长', dataIndex: 'durationDays', render: (d: number) => `${d} 天` },
            { title: '价格', dataIndex: 'price', render: (f: number) => yuan(f) },
            { title: '赠送积分', dataIndex: 'points' },
            { title: '状态', dataIndex: 'enabled', render: (e: boolean) => (e ? <Tag color="green">在售</Tag> : <Tag>下架</Tag>) },
          ]}
        />
      </Card>
      <Card title="积分包" extra={canWrite ? <Button onClick={edit({ kind: 'bundle', item: null })}>新建积分包</Button> : null}>
        <Table<AdminBundle>
          rowKey="id"
          size="small"
          pagination={false}
          loading={data.isFetching}
          dataSource={data.data?.bundles ?? []}
          onRow={(item) => ({ onClick: edit({ kind: 'bundle', item }) })}
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: '名称', dataIndex: 'name' },
            { title: '积分', dataIndex: 'points' },
            { title: '价格', dataIndex: 'price', render: (f: number) => yuan(f) },
            { title: '状态', dataIndex: 'enabled', render: (e: boolean) => (e ? <Tag color="green">在售</Tag> : <Tag>下架</Tag>) },
          ]}
        />
      </Card>
      <Card title="积分价格（积分字典）">
        <Table<PointCost>
          data-testid="admin-point-costs"
          rowKey="feature"
          size="small"
          pagination={false}
          loading={data.isFetching}
          dataSource={data.data?.costs ?? []}
          onRow={(item) => ({ onClick: edit({ kind: 'cost', item }) })}
          columns={[
            { title: '功能', dataIndex: 'feature', render: (f: string) => <code>{f}</code> },
            { title: '名称', dataIndex: 'name' },
            { title: '当前价格', dataIndex: 'point', render: (p: number) => `${p} 积分` },
          ]}
        />
        {data.data?.scheduled.length ? (
          <Table<AdminPointCostChange>
            style={{ marginTop: 16 }}
            title={() => '待生效的价格变更'}
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={data.data.scheduled}
            columns={[
              { title: '功能', dataIndex: 'feature', render: (f: string) => <code>{f}</code> },
              { title: '新价格', dataIndex: 'point', render: (p: number) => `${p} 积分` },
              { title: '生效时间', dataIndex: 'effectiveAt', render: (t: string) => dateTime(t) },
              {
                title: '',
                key: 'op',
                render: (_: unknown, c) =>
                  canWrite ? (
                    <Button size="small" danger loading={withdraw.isPending} onClick={() => withdraw.mutate(c.id)}>
                      撤回
                    </Button>
                  ) : null,
              },
            ]}
          />
        ) : null}
      </Card>
      {editing ? <EditModal editing={editing} onClose={() => setEditing(null)} /> : null}
    </Space>
  );
}

interface EditForm {
  id?: string;
  name?: string;
  durationDays?: number;
  priceYuan?: number;
  points?: number;
  perks?: string[];
  sort?: number;
  enabled?: boolean;
  point?: number;
  effectiveAt?: Dayjs | null;
}

function EditModal({ editing, onClose }: { editing: NonNullable<Editing>; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditForm>();
  const save = useMutation({
    mutationFn: async (v: EditForm) => {
      const price = Math.round((v.priceYuan ?? 0) * 100);
      if (editing.kind === 'plan')
        return adminApi.savePlan({
          id: v.id ?? '',
          name: v.name ?? '',
          durationDays: v.durationDays ?? 0,
          price,
          points: v.points ?? 0,
          perks: v.perks ?? [],
          sort: v.sort ?? 0,
          enabled: v.enabled ?? true,
        });
      if (editing.kind === 'bundle')
        return adminApi.saveBundle({ id: v.id ?? '', name: v.name ?? '', points: v.points ?? 0, price, sort: v.sort ?? 0, enabled: v.enabled ?? true });
      return adminApi.setPointCost({ feature: editing.item.feature, name: v.name, point: v.point ?? 0, effectiveAt: v.effectiveAt ? v.effectiveAt.toISOString() : undefined });
    },
    onSuccess: async () => {
      message.success('已保存');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalogue'] });
      onClose();
    },
  });
  const item = editing.item;
  const initial: EditForm =
    editing.kind === 'cost'
      ? { name: editing.item.name, point: editing.item.point }
      : item && 'price' in item
        ? { ...item, priceYuan: item.price / 100 }
        : { enabled: true, sort: 0, perks: [], points: 0 };
  const title = editing.kind === 'plan' ? '会员套餐' : editing.kind === 'bundle' ? '积分包' : `积分价格：${editing.item.feature}`;

  return (
    <Modal open title={title} okText="保存" confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} data-testid="admin-catalogue-edit">
      <Form<EditForm> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)}>
        {editing.kind !== 'cost' ? (
          <>
            <Form.Item name="id" label="ID" rules={[{ required: true, pattern: /^[a-z0-9_-]{1,32}$/, message: '1到32位小写字母、数字、下划线或连字符' }]}>
              <Input disabled={!!editing.item} />
            </Form.Item>
            <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: '请填写名称' }]}>
              <Input maxLength={40} />
            </Form.Item>
            {editing.kind === 'plan' ? (
              <Form.Item name="durationDays" label="时长（天）" rules={[{ required: true, message: '请填写时长' }]}>
                <InputNumber min={1} max={3660} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            ) : null}
            <Form.Item name="priceYuan" label="价格（元）" rules={[{ required: true, message: '请填写价格' }]}>
              <InputNumber min={0.01} precision={2} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="points" label={editing.kind === 'plan' ? '赠送积分' : '积分'} rules={[{ required: true, message: '请填写积分' }]}>
              <InputNumber min={editing.kind === 'plan' ? 0 : 1} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            {editing.kind === 'plan' ? (
              <Form.Item name="perks" label="权益">
                <Select mode="tags" open={false} placeholder="输入后回车" />
              </Form.Item>
            ) : null}
            <Form.Item name="sort" label="排序">
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="enabled" label="在售" valuePropName="checked">
              <Switch />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="name" label="名称">
              <Input maxLength={40} />
            </Form.Item>
            <Form.Item name="point" label="价格（积分）" rules={[{ required: true, message: '请填写价格' }]}>
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="effectiveAt" label="生效时间（留空即刻生效）">
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
