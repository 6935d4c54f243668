import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Modal, Radio, Select, Table, Tag, Typography } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { adminRoleAtLeast, orderStatuses, type AdminOrder, type AdminRefund } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime, PAY_CHANNEL_LABEL, yuan } from '../../features/vip/format';
import { adminApi, newRequestId, type AdminOrderQuery } from './admin-api';
import { ORDER_STATUS_LABEL, pretty, REFUND_STATUS_LABEL } from './format';

const PAGE_SIZE = 20;

interface Filters {
  status?: AdminOrderQuery['status'];
  channel?: AdminOrderQuery['channel'];
  orderNo?: string;
  userId?: number;
  review?: boolean;
  from?: string;
  to?: string;
}

export default function OrdersPage({ me }: { me: AdminMe }) {
  const navigate = useNavigate();
  const { orderNo } = useParams();
  const [filters, setFilters] = useState<Filters>({});
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'orders', filters, pageNum],
    queryFn: () => adminApi.orders({ ...filters, review: filters.review ? 'true' : undefined, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const set = (patch: Filters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPageNum(1);
  };

  return (
    <div data-testid="admin-orders">
      <div className="admin-toolbar">
        <Select
          allowClear
          placeholder="状态"
          aria-label="订单状态"
          style={{ width: 130 }}
          value={filters.status}
          onChange={(status?: Filters['status']) => set({ status })}
          options={orderStatuses.map((s) => ({ value: s, label: ORDER_STATUS_LABEL[s]?.label ?? s }))}
        />
        <Select
          allowClear
          placeholder="渠道"
          aria-label="支付渠道"
          style={{ width: 120 }}
          value={filters.channel}
          onChange={(channel?: Filters['channel']) => set({ channel })}
          options={[
            { value: 'wechat', label: '微信支付' },
            { value: 'alipay', label: '支付宝' },
          ]}
        />
        <DatePicker.RangePicker aria-label="下单日期" onChange={(range) => set({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })} />
        <Input.Search allowClear placeholder="订单号" aria-label="订单号" style={{ width: 240 }} onSearch={(v) => set({ orderNo: v.trim() || undefined })} />
        <Input.Search
          allowClear
          placeholder="用户ID"
          aria-label="用户ID"
          style={{ width: 160 }}
          onSearch={(v) => set({ userId: /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined })}
        />
        <Radio.Group
          optionType="button"
          value={filters.review ? 'review' : 'all'}
          onChange={(e) => set({ review: e.target.value === 'review' })}
          options={[
            { value: 'all', label: '全部' },
            { value: 'review', label: '待复核' },
          ]}
        />
      </div>
      <Table<AdminOrder>
        data-testid="admin-orders-table"
        rowKey="orderNo"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        scroll={{ x: 1000 }}
        onRow={(o) => ({ onClick: () => void navigate(`/admin/orders/${o.orderNo}`), style: { cursor: 'pointer' } })}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '用户', dataIndex: 'userId', render: (id: number) => <Link to={`/admin/users/${id}`}>{id}</Link> },
          { title: '商品', dataIndex: 'itemName', render: (n: string, o) => `${o.kind === 'vip' ? '会员' : '积分包'} · ${n}` },
          { title: '金额', dataIndex: 'amount', render: (f: number) => yuan(f) },
          { title: '已退款', dataIndex: 'refundedAmount', render: (f: number) => (f ? yuan(f) : '—') },
          { title: '渠道', dataIndex: 'channel', render: (c: string) => PAY_CHANNEL_LABEL[c] ?? c },
          { title: '状态', dataIndex: 'status', render: (s: string, o) => <OrderStatus status={s} review={o.reviewReason} /> },
          { title: '下单时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
        ]}
      />
      {orderNo ? <OrderDrawer me={me} orderNo={orderNo} onClose={() => void navigate('/admin/orders')} /> : null}
    </div>
  );
}

function OrderStatus({ status, review }: { status: string; review: string | null }) {
  const s = ORDER_STATUS_LABEL[status];
  return (
    <>
      <Tag color={s?.color}>{s?.label ?? status}</Tag>
      {review ? <Tag color="magenta">待复核</Tag> : null}
    </>
  );
}

function OrderDrawer({ me, orderNo, onClose }: { me: AdminMe; orderNo: string; onClose: () => void }) {
  const detail = useQuery({ queryKey: ['admin', 'order', orderNo], queryFn: () => adminApi.orderDetail(orderNo), retry: false });
  const [refunding, setRefunding] = useState(false);
  const order = detail.data?.order;
  const refundable = order && (order.status === 'paid' || order.status === 'partially_refunded') ? order.amount - order.refundedAmount : 0;

  return (
    <Drawer open width={860} title={`订单 ${orderNo}`} onClose={onClose} data-testid="admin-order-drawer">
      {detail.isError ? <Alert type="error" showIcon title={detail.error.message} /> : null}
      {order ? (
        <>
          <Descriptions size="small" column={2} bordered data-testid="admin-order-detail">
            <Descriptions.Item label="用户">
              <Link to={`/admin/users/${order.userId}`}>{order.userId}</Link>
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <span data-testid="admin-order-status">
                <OrderStatus status={order.status} review={order.reviewReason} />
              </span>
            </Descriptions.Item>
            <Descriptions.Item label="商品">{order.itemName}</Descriptions.Item>
            <Descriptions.Item label="内容">
              {order.kind === 'vip' ? `会员 ${order.durationDays} 天` : ''}
              {order.points ? ` ${order.points} 积分` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="金额">{yuan(order.amount)}</Descriptions.Item>
            <Descriptions.Item label="已退款">{yuan(order.refundedAmount)}</Descriptions.Item>
            <Descriptions.Item label="渠道">
              {PAY_CHANNEL_LABEL[order.channel] ?? order.channel}（{order.gateway}）
            </Descriptions.Item>
            <Descriptions.Item label="交易号">{order.transactionId ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="下单时间">{dateTime(order.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="支付时间">{dateTime(order.paidAt)}</Descriptions.Item>
            {order.reviewReason ? (
              <Descriptions.Item label="复核原因" span={2}>
                {order.reviewReason}
                {order.reviewTransactionId ? `（交易号 ${order.reviewTransactionId}）` : ''}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {adminRoleAtLeast(me.role, 'operator') && refundable > 0 ? (
            <Button danger style={{ margin: '16px 0' }} data-testid="admin-refund-open" onClick={() => setRefunding(true)}>
              退款
            </Button>
          ) : null}
          <Typography.Title level={5}>退款记录</Typography.Title>
          <Table<AdminRefund>
            data-testid="admin-order-refunds"
            rowKey="refundNo"
            size="small"
            pagination={false}
            dataSource={detail.data?.refunds ?? []}
            columns={[
              { title: '退款单号', dataIndex: 'refundNo' },
              { title: '金额', dataIndex: 'amount', render: (f: number) => yuan(f) },
              { title: '状态', dataIndex: 'status', render: (s: string, r) => `${REFUND_STATUS_LABEL[s] ?? s}${r.failReason ? `：${r.failReason}` : ''}` },
              { title: '扣回积分', dataIndex: 'pointsReversed', render: (p: number, r) => (r.pointsShortfall ? `${p}（差 ${r.pointsShortfall} 已消耗）` : p) },
              { title: '扣减会员天数', dataIndex: 'vipDaysCut' },
              { title: '原因', dataIndex: 'reason' },
              { title: '时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            网关记录
          </Typography.Title>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={detail.data?.gatewayEvents ?? []}
            expandable={{ expandedRowRender: (e) => <pre className="admin-json">{pretty(e.payload)}</pre> }}
            columns={[
              { title: '类型', dataIndex: 'kind' },
              { title: '时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
            ]}
          />
          {refunding ? <RefundModal order={order} refundable={refundable} onClose={() => setRefunding(false)} /> : null}
        </>
      ) : null}
    </Drawer>
  );
}

/** Full or partial; the amount is entered in yuan and sent in fen. A second confirmation names the effect. */
function RefundModal({ order, refundable, onClose }: { order: AdminOrder; refundable: number; onClose: () => void }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ mode: 'full' | 'partial'; yuan?: number; reason: string }>();
  const [requestId] = useState(newRequestId);
  const refund = useMutation({
    mutationFn: (v: { amount: number; reason: string }) => adminApi.refund({ orderNo: order.orderNo, amount: v.amount, reason: v.reason, requestId }),
    onSuccess: async (r) => {
      message.success(r.status === 'succeeded' ? '退款成功' : '退款已提交，等待支付渠道确认');
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      onClose();
    },
  });

  const confirm = (v: { mode: 'full' | 'partial'; yuan?: number; reason: string }) => {
    const amount = v.mode === 'full' ? refundable : Math.round((v.yuan ?? 0) * 100);
    modal.confirm({
      title: `确认退款 ${yuan(amount)}？`,
      content: `订单 ${order.orderNo} 将通过${PAY_CHANNEL_LABEL[order.channel] ?? order.channel}原路退回${amount === refundable ? '剩余全部金额' : '部分金额'}，并按比例扣回该订单发放的积分${order.kind === 'vip' ? '与会员天数' : ''}。此操作不可撤销。`,
      okText: '确认退款',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => refund.mutateAsync({ amount, reason: v.reason }),
    });
  };

  return (
    <Modal open title="退款" okText="下一步" onOk={() => form.submit()} onCancel={onClose} confirmLoading={refund.isPending} data-testid="admin-refund">
      <p>
        可退金额：<strong>{yuan(refundable)}</strong>（订单金额 {yuan(order.amount)}，已退 {yuan(order.refundedAmount)}）
      </p>
      <Form form={form} layout="vertical" initialValues={{ mode: 'full' }} onFinish={confirm}>
        <Form.Item name="mode" label="退款方式">
          <Radio.Group
            options={[
              { value: 'full', label: '全额退款' },
              { value: 'partial', label: '部分退款' },
            ]}
          />
        </Form.Item>
        <Form.Item noStyle dependencies={['mode']}>
          {() =>
            form.getFieldValue('mode') === 'partial' ? (
              <Form.Item name="yuan" label="退款金额（元）" rules={[{ required: true, message: '请填写退款金额' }]}>
                <InputNumber min={0.01} max={refundable / 100} precision={2} step={1} style={{ width: '100%' }} aria-label="退款金额" />
              </Form.Item>
            ) : null
          }
        </Form.Item>
        <Form.Item name="reason" label="原因" rules={[{ required: true, whitespace: true, message: '请填写退款原因' }]}>
          <Input.TextArea maxLength={200} showCount aria-label="退款原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
