import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Form, Input, InputNumber, Modal, Radio, Select, Space, Table, Tabs, Tag } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { adminRoleAtLeast, adminRoles, ledgerEntryLabel, type AdminRole, type AdminUser, type LedgerEntry } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime, yuan } from '../../features/vip/format';
import { adminApi, newRequestId } from './admin-api';
import { ORDER_STATUS_LABEL, ROLE_LABEL } from './format';

const PAGE_SIZE = 20;
const TAB_PAGE_SIZE = 10;

export default function UsersPage({ me }: { me: AdminMe }) {
  const navigate = useNavigate();
  const { userId } = useParams();
  const [q, setQ] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'users', q, pageNum],
    queryFn: () => adminApi.users({ q: q || undefined, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });

  return (
    <div data-testid="admin-users">
      <div className="admin-toolbar">
        <Input.Search
          allowClear
          placeholder="用户ID / 手机号 / 昵称"
          aria-label="搜索用户"
          style={{ width: 320 }}
          enterButton="搜索"
          onSearch={(v) => {
            setQ(v.trim());
            setPageNum(1);
          }}
        />
      </div>
      <Table<AdminUser>
        data-testid="admin-users-table"
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        scroll={{ x: 960 }}
        onRow={(u) => ({ onClick: () => void navigate(`/admin/users/${u.id}`), style: { cursor: 'pointer' } })}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '昵称', dataIndex: 'nickname' },
          { title: '手机号', dataIndex: 'phone', render: (p: string | null) => p ?? '—' },
          { title: '角色', dataIndex: 'role', render: (r: AdminRole | null) => (r ? <Tag color="geekblue">{ROLE_LABEL[r]}</Tag> : '—') },
          { title: '会员', dataIndex: 'isVip', render: (v: boolean, u) => (v ? <Tag color="gold">会员至 {dateTime(u.vipExpiredAt)}</Tag> : '—') },
          { title: '积分', dataIndex: 'pointsBalance' },
          { title: '状态', key: 'state', render: (_: unknown, u) => <UserState user={u} /> },
          { title: '注册时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
        ]}
      />
      {userId ? <UserDrawer me={me} userId={Number(userId)} onClose={() => void navigate('/admin/users')} /> : null}
    </div>
  );
}

function UserState({ user }: { user: AdminUser }) {
  if (user.deletedAt) return <Tag>已注销</Tag>;
  if (user.bannedAt) return <Tag color="red">已封禁</Tag>;
  return <Tag color="green">正常</Tag>;
}

type ActionKind = 'points' | 'vip' | 'ban' | 'nickname' | 'role';

function UserDrawer({ me, userId, onClose }: { me: AdminMe; userId: number; onClose: () => void }) {
  const detail = useQuery({ queryKey: ['admin', 'user', userId], queryFn: () => adminApi.userDetail(userId), retry: false });
  const [action, setAction] = useState<ActionKind | null>(null);
  const user = detail.data?.user;
  const canWrite = adminRoleAtLeast(me.role, 'support');

  return (
    <Drawer open width={860} title={user ? `${user.nickname}（ID ${user.id}）` : '用户详情'} onClose={onClose} data-testid="admin-user-drawer">
      {detail.isError ? <div className="muted">{detail.error.message}</div> : null}
      {user ? (
        <>
          <Descriptions size="small" column={2} bordered data-testid="admin-user-profile">
            <Descriptions.Item label="UID">{user.uid}</Descriptions.Item>
            <Descriptions.Item label="手机号">{user.phone ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="微信">{user.wechatBound ? '已绑定' : '未绑定'}</Descriptions.Item>
            <Descriptions.Item label="角色">{user.role ? ROLE_LABEL[user.role] : '—'}</Descriptions.Item>
            <Descriptions.Item label="会员">{user.isVip ? `有效至 ${dateTime(user.vipExpiredAt)}` : '非会员'}</Descriptions.Item>
            <Descriptions.Item label="积分余额">
              <span data-testid="admin-user-points">{user.pointsBalance}</span>
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <UserState user={user} />
            </Descriptions.Item>
            <Descriptions.Item label="注册时间">{dateTime(user.createdAt)}</Descriptions.Item>
          </Descriptions>
          {canWrite ? (
            <Space wrap style={{ margin: '16px 0' }}>
              <Button onClick={() => setAction('points')}>调整积分</Button>
              <Button onClick={() => setAction('vip')}>会员延长/撤销</Button>
              <Button danger={!user.bannedAt} onClick={() => setAction('ban')}>
                {user.bannedAt ? '解除封禁' : '封禁'}
              </Button>
              <Button onClick={() => setAction('nickname')}>重置昵称</Button>
              {me.role === 'owner' ? <Button onClick={() => setAction('role')}>设置角色</Button> : null}
            </Space>
          ) : null}
          <Tabs
            items={[
              { key: 'ledger', label: '积分流水', children: <LedgerTab userId={userId} /> },
              { key: 'orders', label: '订单', children: <OrdersTab userId={userId} /> },
              {
                key: 'sessions',
                label: '登录会话',
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={detail.data?.sessions ?? []}
                    columns={[
                      { title: '设备', dataIndex: 'device', render: (d: string | null) => d ?? '—' },
                      { title: 'IP', dataIndex: 'ip', render: (d: string | null) => d ?? '—' },
                      { title: '登录时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
                      { title: '最近活动', dataIndex: 'lastSeenAt', render: (t: string) => dateTime(t) },
                      {
                        title: '状态',
                        dataIndex: 'revokedAt',
                        render: (t: string | null, s) => (t ? <Tag>已失效{s.revokedReason ? `（${s.revokedReason}）` : ''}</Tag> : <Tag color="green">有效</Tag>),
                      },
                    ]}
                  />
                ),
              },
              {
                key: 'accounts',
                label: '绑定账号',
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={detail.data?.boundAccounts ?? []}
                    columns={[
                      { title: '平台', dataIndex: 'platform' },
                      { title: '账号', dataIndex: 'nickname' },
                      { title: '状态', dataIndex: 'status' },
                      { title: '绑定时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
                    ]}
                  />
                ),
              },
            ]}
          />
          {action ? <UserActionModal kind={action} user={user} onClose={() => setAction(null)} /> : null}
        </>
      ) : null}
    </Drawer>
  );
}

function LedgerTab({ userId }: { userId: number }) {
  const [pageNum, setPageNum] = useState(1);
  const ledger = useQuery({
    queryKey: ['admin', 'user', userId, 'ledger', pageNum],
    queryFn: () => adminApi.userLedger(userId, pageNum, TAB_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  return (
    <Table<LedgerEntry>
      data-testid="admin-user-ledger"
      rowKey="id"
      size="small"
      loading={ledger.isFetching}
      dataSource={ledger.data?.records ?? []}
      pagination={{ current: pageNum, pageSize: TAB_PAGE_SIZE, total: ledger.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
      columns={[
        { title: '时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
        { title: '说明', key: 'label', render: (_: unknown, e) => ledgerEntryLabel(e) },
        { title: '变动', dataIndex: 'delta', render: (d: number) => <span style={{ color: d < 0 ? '#cf1322' : '#389e0d' }}>{d > 0 ? `+${d}` : d}</span> },
        { title: '余额', dataIndex: 'balanceAfter' },
      ]}
    />
  );
}

function OrdersTab({ userId }: { userId: number }) {
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const orders = useQuery({
    queryKey: ['admin', 'user', userId, 'orders', pageNum],
    queryFn: () => adminApi.userOrders(userId, pageNum, TAB_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  return (
    <Table
      rowKey="orderNo"
      size="small"
      loading={orders.isFetching}
      dataSource={orders.data?.records ?? []}
      onRow={(o) => ({ onClick: () => void navigate(`/admin/orders/${o.orderNo}`), style: { cursor: 'pointer' } })}
      pagination={{ current: pageNum, pageSize: TAB_PAGE_SIZE, total: orders.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
      columns={[
        { title: '订单号', dataIndex: 'orderNo' },
        { title: '商品', dataIndex: 'itemName' },
        { title: '金额', dataIndex: 'amount', render: (f: number) => yuan(f) },
        { title: '状态', dataIndex: 'status', render: (s: string) => <Tag color={ORDER_STATUS_LABEL[s]?.color}>{ORDER_STATUS_LABEL[s]?.label ?? s}</Tag> },
        { title: '下单时间', dataIndex: 'createdAt', render: (t: string) => dateTime(t) },
      ]}
    />
  );
}

const ACTION_TITLE: Record<ActionKind, string> = { points: '调整积分', vip: '会员延长/撤销', ban: '封禁/解封', nickname: '重置昵称', role: '设置角色' };

interface ActionForm {
  direction?: 'grant' | 'deduct';
  amount?: number;
  vipAction?: 'extend' | 'revoke';
  days?: number;
  role?: AdminRole | 'none';
  reason?: string;
}

/** Every write asks for a reason (it goes into the audit log) and is made once per opened dialog. */
function UserActionModal({ kind, user, onClose }: { kind: ActionKind; user: AdminUser; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ActionForm>();
  // One id for this dialog: pressing 确定 again after a lost reply cannot grant twice.
  const [requestId] = useState(newRequestId);
  const run = useMutation({
    mutationFn: async (v: ActionForm) => {
      const reason = v.reason ?? '';
      if (kind === 'points') return adminApi.points({ userId: user.id, direction: v.direction ?? 'grant', amount: v.amount ?? 0, reason, requestId });
      if (kind === 'vip') return v.vipAction === 'revoke' ? adminApi.vipRevoke(user.id, reason) : adminApi.vipExtend(user.id, v.days ?? 0, reason);
      if (kind === 'ban') return adminApi.ban(user.id, !user.bannedAt, reason);
      if (kind === 'nickname') return adminApi.resetNickname(user.id, reason);
      return adminApi.setRole(user.id, v.role === 'none' || !v.role ? null : v.role);
    },
    onSuccess: async () => {
      message.success('操作成功');
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      onClose();
    },
  });

  return (
    <Modal open title={ACTION_TITLE[kind]} okText="确定" confirmLoading={run.isPending} onOk={() => form.submit()} onCancel={onClose} data-testid="admin-user-action">
      <Form<ActionForm>
        form={form}
        layout="vertical"
        initialValues={{ direction: 'grant', vipAction: 'extend', days: 30, role: user.role ?? 'none' }}
        onFinish={(v) => run.mutate(v)}
      >
        {kind === 'points' ? (
          <>
            <Form.Item name="direction" label="方向">
              <Radio.Group
                options={[
                  { value: 'grant', label: '发放' },
                  { value: 'deduct', label: '扣除' },
                ]}
              />
            </Form.Item>
            <Form.Item name="amount" label="积分" rules={[{ required: true, message: '请填写积分' }]}>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} aria-label="积分" />
            </Form.Item>
          </>
        ) : null}
        {kind === 'vip' ? (
          <>
            <Form.Item name="vipAction" label="操作">
              <Radio.Group
                options={[
                  { value: 'extend', label: '延长' },
                  { value: 'revoke', label: '撤销' },
                ]}
              />
            </Form.Item>
            <Form.Item noStyle dependencies={['vipAction']}>
              {() =>
                form.getFieldValue('vipAction') === 'extend' ? (
                  <Form.Item name="days" label="天数" rules={[{ required: true, message: '请填写天数' }]}>
                    <InputNumber min={1} max={3660} precision={0} style={{ width: '100%' }} aria-label="天数" />
                  </Form.Item>
                ) : null
              }
            </Form.Item>
          </>
        ) : null}
        {kind === 'ban' ? <p>{user.bannedAt ? '解除封禁后该用户可以重新登录。' : '封禁后该用户的所有登录会话立即失效，且无法再登录。'}</p> : null}
        {kind === 'nickname' ? <p>昵称将恢复为系统默认昵称。</p> : null}
        {kind === 'role' ? (
          <Form.Item name="role" label="角色">
            <Select options={[{ value: 'none', label: '无（收回）' }, ...adminRoles.map((r) => ({ value: r, label: ROLE_LABEL[r] }))]} />
          </Form.Item>
        ) : (
          <Form.Item name="reason" label="原因" rules={[{ required: true, whitespace: true, message: '请填写原因' }]}>
            <Input.TextArea maxLength={200} showCount aria-label="原因" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
