import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Table, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi, type OrderItem } from '../../api/vip';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { dateTime, ORDER_STATUS, PAY_CHANNEL_LABEL, yuan } from '../../features/vip/format';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';

const PAGE_SIZE = 10;

export default function OrderInfoPage() {
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const orders = useQuery({
    queryKey: queryKeys.vip.orders(pageNum),
    queryFn: () => vipApi.orders(pageNum, PAGE_SIZE),
    enabled: isLogin === true,
    retry: false,
    placeholderData: (prev) => prev,
  });

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后查看订单">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (orders.isPending) {
    body = <Skeleton active paragraph={{ rows: 5 }} data-testid="orders-loading" />;
  } else if (orders.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="orders-error"
        title="订单加载失败"
        description={orders.error instanceof Error ? orders.error.message : '请稍后再试'}
        action={<Button onClick={() => orders.refetch()}>重试</Button>}
      />
    );
  } else if (!orders.data.records.length && pageNum === 1) {
    body = (
      <Empty data-testid="orders-empty" description="暂无订单">
        <Button type="primary" onClick={() => navigate('/integral')}>
          去开通会员
        </Button>
      </Empty>
    );
  } else {
    body = (
      <Table<OrderItem>
        data-testid="orders-table"
        rowKey="orderNo"
        size="middle"
        scroll={{ x: 720 }}
        loading={orders.isFetching && orders.isPlaceholderData}
        dataSource={orders.data.records}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: orders.data.total, onChange: setPageNum, hideOnSinglePage: true, showSizeChanger: false }}
        columns={[
          {
            title: '商品',
            dataIndex: 'itemName',
            render: (name: string, o) => (
              <>
                <Tag color={o.kind === 'vip' ? 'gold' : 'blue'}>{o.kind === 'vip' ? '会员' : '积分包'}</Tag>
                {name}
                {o.sandbox ? (
                  <Tag color="orange" style={{ marginLeft: 6 }}>
                    沙箱
                  </Tag>
                ) : null}
              </>
            ),
          },
          { title: '金额', dataIndex: 'amount', render: (fen: number) => yuan(fen), width: 110 },
          {
            title: '状态',
            dataIndex: 'status',
            width: 90,
            render: (s: OrderItem['status']) => (
              <Tag color={ORDER_STATUS[s].color} data-testid="order-status">
                {ORDER_STATUS[s].label}
              </Tag>
            ),
          },
          { title: '支付方式', dataIndex: 'payChannel', width: 100, render: (c: string) => PAY_CHANNEL_LABEL[c] ?? c },
          { title: '下单时间', dataIndex: 'createdAt', width: 150, render: (t: string) => dateTime(t) },
          { title: '订单号', dataIndex: 'orderNo', render: (n: string) => <span className="muted">{n}</span> },
        ]}
      />
    );
  }

  return (
    <PageFrame
      testId="page-orderInfo"
      title="我的订单"
      extra={
        isLogin === true ? (
          <Button onClick={() => orders.refetch()} loading={orders.isFetching} data-testid="orders-refresh">
            刷新
          </Button>
        ) : null
      }
    >
      <div className="vip-page">{body}</div>
    </PageFrame>
  );
}
