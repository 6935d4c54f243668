import { useCallback, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, List, Popconfirm, Segmented, Skeleton, Switch } from 'antd';
import { formatTimeAgo } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { publishApi, type BoundAccount, type PublishPlatform } from '../../api/publish';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { toast } from '../../features/notifications/toasts';
import { BindModal } from '../../features/publish/bind-modal';
import { PublishDialog } from '../../features/publish/publish-dialog';
import { AccountBadge, AccountStatus } from '../../features/publish/account-bits';
import { usePlatforms } from '../../features/publish/platforms';
import '../../features/publish/publish.css';
import { queryKeys } from '../../api/query-keys';

export default function AccountManagerPage() {
  const isLogin = useIsLogin();
  const qc = useQueryClient();
  const platformFilters = [{ value: '', label: '全部' }, ...usePlatforms().platforms.map((o) => ({ value: o.platform, label: o.platformName }))];
  const [platform, setPlatform] = useState<'' | PublishPlatform>('');
  const [topOnly, setTopOnly] = useState(false);
  const [name, setName] = useState('');
  const [bindFor, setBindFor] = useState<{ platform?: PublishPlatform } | null>(null);
  const [publishFor, setPublishFor] = useState<{ accountIds: number[] } | null>(null);

  const query = { ...(platform ? { platform } : {}), ...(topOnly ? { top: true } : {}), ...(name ? { accountName: name } : {}) };
  const list = useQuery({
    queryKey: queryKeys.publish.accounts.filtered(query),
    queryFn: () => publishApi.list(query),
    enabled: isLogin === true,
    retry: false,
  });
  const count = useQuery({ queryKey: queryKeys.publish.accountCount, queryFn: publishApi.count, enabled: isLogin === true, retry: false });

  const refresh = useCallback(() => {
    qc.invalidateQueries({ queryKey: queryKeys.publish.accounts.all });
    qc.invalidateQueries({ queryKey: queryKeys.publish.accountCount });
  }, [qc]);

  const unbind = useMutation({
    mutationFn: (a: BoundAccount) => publishApi.unbind(a.id),
    onSuccess: (_r, a) => {
      toast.message('success', `已解绑「${a.accountName}」`, 2);
      refresh();
    },
  });
  const pin = useMutation({
    mutationFn: (a: BoundAccount) => publishApi.setTop(a.id, !a.top),
    onSuccess: (r) => {
      toast.message('success', r.top ? `已置顶「${r.accountName}」` : `已取消置顶「${r.accountName}」`, 2);
      refresh();
    },
  });
  const check = useMutation({
    mutationFn: (a: BoundAccount) => publishApi.sessionCheck(a.id),
    onSuccess: (r) => {
      if (r.valid) toast.message('success', '登录状态正常', 2);
      else toast.message('warning', r.statusReason ?? '登录已失效，请重新绑定', 3);
      refresh();
    },
  });

  let body;
  if (isLogin !== true) {
    body = (
      <Empty description="登录后管理平台账号">
        <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
          登录
        </Button>
      </Empty>
    );
  } else if (list.isPending) {
    body = <Skeleton active avatar paragraph={{ rows: 3 }} data-testid="accounts-loading" />;
  } else if (list.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="accounts-error"
        title="账号加载失败"
        description={list.error.message}
        action={<Button onClick={() => list.refetch()}>重试</Button>}
      />
    );
  } else if (!list.data.records.length) {
    body = (
      <Empty data-testid="accounts-empty" description={platform || topOnly || name ? '没有符合条件的账号' : '还没有绑定账号'}>
        <Button type="primary" onClick={() => setBindFor({})}>
          绑定账号
        </Button>
      </Empty>
    );
  } else {
    body = (
      <List
        className="account-list"
        data-testid="accounts-list"
        dataSource={list.data.records}
        rowKey="id"
        renderItem={(a) => (
          <List.Item
            data-testid="account-item"
            data-account-id={a.id}
            data-status={a.status}
            actions={[
              a.status === 'expired' ? (
                <Button key="rebind" type="primary" size="small" onClick={() => setBindFor({ platform: a.platform as PublishPlatform })} data-testid="account-rebind">
                  重新绑定
                </Button>
              ) : (
                <Button key="publish" size="small" onClick={() => setPublishFor({ accountIds: [a.id] })}>
                  发布
                </Button>
              ),
              <Button key="pin" size="small" loading={pin.isPending && pin.variables?.id === a.id} onClick={() => pin.mutate(a)} data-testid="account-pin">
                {a.top ? '取消置顶' : '置顶'}
              </Button>,
              <Button key="check" size="small" loading={check.isPending && check.variables?.id === a.id} onClick={() => check.mutate(a)}>
                检查登录
              </Button>,
              <Popconfirm
                key="unbind"
                title={`解绑「${a.accountName}」？`}
                description="解绑后将删除该账号的登录信息，需要重新扫码才能发布。"
                okText="解绑"
                cancelText="取消"
                okButtonProps={{ danger: true, loading: unbind.isPending }}
                onConfirm={() => unbind.mutateAsync(a)}
              >
                <Button size="small" danger data-testid="account-unbind">
                  解绑
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={<AccountBadge account={a} />}
              description={
                <span className="account-meta">
                  <AccountStatus account={a} />
                  {a.status === 'expired' && a.statusReason ? <span className="muted">{a.statusReason}</span> : null}
                  <span>粉丝 {a.followerCount}</span>
                  <span>笔记 {a.noteCount}</span>
                  <span className="muted">{a.lastSyncedAt ? `同步于 ${formatTimeAgo(a.lastSyncedAt)}` : '尚未同步'}</span>
                </span>
              }
            />
          </List.Item>
        )}
      />
    );
  }

  const c = count.data;
  return (
    <PageFrame
      testId="page-accountManager"
      title="账号管理"
      extra={
        isLogin === true ? (
          <div className="toolbar" style={{ marginBottom: 0 }}>
            <Button onClick={() => setPublishFor({ accountIds: [] })} data-testid="open-publish">
              发布测试笔记
            </Button>
            <Button type="primary" onClick={() => setBindFor({})} data-testid="open-bind">
              绑定账号
            </Button>
          </div>
        ) : null
      }
    >
      {isLogin === true ? (
        <>
          {c ? (
            <p className="muted" data-testid="accounts-count">
              共 {c.total} 个账号 · 正常 {c.active} · 失效 {c.expired}
            </p>
          ) : null}
          <div className="toolbar">
            <Segmented value={platform} options={platformFilters} onChange={(v) => setPlatform(v as '' | PublishPlatform)} />
            <label className="account-option">
              <Switch size="small" checked={topOnly} onChange={setTopOnly} aria-label="只看置顶" /> 只看置顶
            </label>
            <Input.Search placeholder="搜索账号名称" allowClear maxLength={50} onSearch={(v) => setName(v.trim())} style={{ width: 200 }} aria-label="搜索账号名称" />
          </div>
        </>
      ) : null}
      {body}
      <BindModal open={bindFor !== null} platform={bindFor?.platform} onClose={() => setBindFor(null)} onBound={refresh} />
      <PublishDialog open={publishFor !== null} accountIds={publishFor?.accountIds} onClose={() => setPublishFor(null)} />
    </PageFrame>
  );
}
