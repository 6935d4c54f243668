import { useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Table, Tag } from 'antd';
import { ledgerEntryLabel, ledgerKindLabels } from '@inkstone/shared';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi, type LedgerEntry } from '../../api/vip';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';
import { toast } from '../../features/notifications/toasts';
import { VipSummary } from '../../features/vip/vip-summary';
import { RedeemCode } from '../../features/vip/redeem-code';
import { useRefreshVip } from '../../features/vip/vip-sync';
import { InvitePanel } from '../../features/vip/invite-panel';
import { dateTime, signed } from '../../features/vip/format';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

const PAGE_SIZE = 10;

/**
 * The daily login reward is credited by the server on the day's first balance read (the app makes it at start-up),
 * so this mostly shows 今日已领取. It asks only once the balance is known, so it sees that credit; the button stays
 * for a day the start-up read did not happen (for example the server was briefly unreachable).
 */
function DailyClaim() {
  const refresh = useRefreshVip();
  const pointsKnown = useUserVipStore((s) => s.pointsKnown);
  const home = useQuery({ queryKey: queryKeys.vip.homepage, queryFn: vipApi.homepageActivity, retry: false, enabled: pointsKnown });
  const claim = useMutation({
    mutationFn: vipApi.claimDaily,
    onSuccess: (r) => {
      useUserVipStore.getState().setVip({ hwPoints: r.score, pointsKnown: true });
      if (r.claimed) {
        const extra = r.returnReward > 0 ? `，回归奖励 +${r.returnReward}` : '';
        toast.message('success', `领取成功，积分 +${r.dailyReward}${extra}`, 3);
      } else {
        toast.message('info', '今天已经领取过了，明天再来吧', 3);
      }
      settle(refresh());
    },
  });
  const claimed = home.data?.dailyClaimedToday === true || claim.data !== undefined;
  const reward = home.data?.dailyReward;
  if (reward === 0) return null;
  return (
    <Button type="primary" disabled={claimed || home.isPending} loading={claim.isPending} onClick={() => claim.mutate()} data-testid="daily-claim">
      {claimed ? '今日已领取' : `领取每日奖励${reward ? ` +${reward}` : ''}`}
    </Button>
  );
}

const KIND_COLOR: Record<LedgerEntry['kind'], string> = { charge: 'default', deduct: 'default', refund: 'blue', grant: 'green', welcome: 'gold' };

function PointsHistory() {
  const [pageNum, setPageNum] = useState(1);
  // Names of features added after release (the built-in ones are labelled in @inkstone/shared).
  const costs = useQuery({ queryKey: queryKeys.vip.costs, queryFn: vipApi.pointCosts, retry: false, staleTime: 5 * 60_000 });
  const dictionary = useMemo(() => Object.fromEntries((costs.data ?? []).map((c) => [c.feature, c.name])), [costs.data]);
  const history = useQuery({
    queryKey: queryKeys.vip.history(pageNum),
    queryFn: () => vipApi.history(pageNum, PAGE_SIZE),
    retry: false,
    placeholderData: (prev) => prev,
  });
  if (history.isPending) return <Skeleton active paragraph={{ rows: 4 }} data-testid="history-loading" />;
  if (history.isError) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="history-error"
        title="积分明细加载失败"
        description={history.error instanceof Error ? history.error.message : '请稍后再试'}
        action={<Button onClick={() => history.refetch()}>重试</Button>}
      />
    );
  }
  if (!history.data.records.length && pageNum === 1) return <Empty data-testid="history-empty" description="暂无积分记录" />;
  return (
    <Table<LedgerEntry>
      data-testid="history-table"
      rowKey="id"
      size="small"
      scroll={{ x: 560 }}
      loading={history.isFetching && history.isPlaceholderData}
      dataSource={history.data.records}
      pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: history.data.total, onChange: setPageNum, hideOnSinglePage: true, showSizeChanger: false }}
      columns={[
        { title: '时间', dataIndex: 'createdAt', width: 150, render: (t: string) => dateTime(t) },
        {
          title: '说明',
          dataIndex: 'reason',
          render: (_: string, e) => (
            <>
              <Tag color={KIND_COLOR[e.kind]}>{ledgerKindLabels[e.kind]}</Tag>
              <span data-testid="history-label">{ledgerEntryLabel(e, dictionary)}</span>
            </>
          ),
        },
        {
          title: '变动',
          dataIndex: 'delta',
          width: 90,
          render: (d: number) => <span className={d >= 0 ? 'delta-plus' : 'delta-minus'}>{signed(d)}</span>,
        },
        { title: '余额', dataIndex: 'balanceAfter', width: 90 },
      ]}
    />
  );
}

export default function MinePage() {
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const isVip = useUserVipStore((s) => s.isVip);

  if (isLogin !== true) {
    return (
      <PageFrame testId="page-mine" title="我的">
        <div className="vip-page">
          <Empty description="登录后查看会员、积分与邀请信息">
            <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
              登录 / 注册
            </Button>
          </Empty>
        </div>
      </PageFrame>
    );
  }

  return (
    <PageFrame
      testId="page-mine"
      title="我的"
      extra={
        <Button type="link" onClick={() => navigate('/orderInfo')} data-testid="mine-orders">
          我的订单
        </Button>
      }
    >
      <div className="vip-page">
        <VipSummary
          extra={
            <div className="row-gap">
              <DailyClaim />
              <Button onClick={() => navigate('/integral')} data-testid="mine-buy">
                {isVip ? '续费会员' : '开通会员'}
              </Button>
            </div>
          }
        />
        <section className="panel">
          <h2>邀请好友</h2>
          <InvitePanel />
        </section>
        <section className="panel">
          <h2>兑换码</h2>
          <RedeemCode />
        </section>
        <section className="panel">
          <h2>积分明细</h2>
          <PointsHistory />
        </section>
      </div>
    </PageFrame>
  );
}
