import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Table } from 'antd';
import { Link } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi, type PointCost } from '../../api/vip';
import { userApi } from '../../api/user';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';

export default function PointsRulePage() {
  const costs = useQuery({ queryKey: queryKeys.vip.costs, queryFn: vipApi.pointCosts, retry: false, staleTime: 5 * 60_000 });
  const setting = useQuery({ queryKey: queryKeys.user.globalSetting, queryFn: userApi.globalSetting, retry: false, staleTime: 5 * 60_000 });
  const config = useQuery({ queryKey: queryKeys.vip.activityConfig, queryFn: vipApi.activityConfig, retry: false, staleTime: 5 * 60_000 });

  let table;
  if (costs.isPending) table = <Skeleton active paragraph={{ rows: 4 }} data-testid="costs-loading" />;
  else if (costs.isError) {
    table = (
      <Alert
        type="error"
        showIcon
        data-testid="costs-error"
        title="积分消耗标准加载失败"
        description={costs.error instanceof Error ? costs.error.message : '请稍后再试'}
        action={<Button onClick={() => costs.refetch()}>重试</Button>}
      />
    );
  } else if (!costs.data.length) table = <Empty data-testid="costs-empty" description="目前所有功能均免费使用" />;
  else {
    table = (
      <Table<PointCost>
        data-testid="costs-table"
        rowKey="feature"
        size="middle"
        pagination={false}
        dataSource={costs.data}
        columns={[
          { title: '功能', dataIndex: 'name' },
          { title: '每次消耗', dataIndex: 'point', width: 140, render: (p: number) => (p > 0 ? `${p} 积分` : '免费') },
        ]}
      />
    );
  }

  const daily = setting.data?.activeReward ?? config.data?.dailyReward;
  const back = setting.data?.autoRenewalDays ?? config.data?.returnReward;
  const invite = config.data?.invite;
  const value = (n: number | undefined) => (n === undefined ? (setting.isPending || config.isPending ? '…' : '—') : n);

  return (
    <PageFrame testId="page-pointsRule" title="积分规则">
      <div className="vip-page">
        <section className="panel">
          <h2>积分消耗</h2>
          <p className="muted">使用以下 AI 功能时按次扣除积分；任务因系统原因失败时，已扣积分会自动退还。选择「离线写作助手（非AI）」时不消耗积分。</p>
          {table}
        </section>
        <section className="panel" data-testid="earn-rules">
          <h2>如何获得积分</h2>
          <ul className="doc-list">
            {config.data?.welcomePoints ? (
              <li data-testid="rule-welcome">
                新用户欢迎积分：注册即得 <strong>{config.data.welcomePoints}</strong> 积分，每个账号一次。
              </li>
            ) : null}
            <li>
              每日登录奖励：每天首次打开砚时自动到账 <strong data-testid="rule-daily">{value(daily)}</strong> 积分（按北京时间每日一次），无需手动领取。
            </li>
            <li>
              回归奖励：超过 {config.data?.returnAfterDays ?? 7} 天未登录，再次登录时额外获得 <strong>{value(back)}</strong> 积分。
            </li>
            <li>
              邀请好友：好友通过你的邀请码注册后，你获得 <strong data-testid="rule-inviter">{value(invite?.inviterReward)}</strong> 积分，好友获得{' '}
              <strong>{value(invite?.inviteeReward)}</strong> 积分。
            </li>
            <li>
              开通会员：各会员套餐附赠积分，开通即到账，详见<Link to="/integral">会员中心</Link>。
            </li>
            <li>
              购买积分包：在<Link to="/integral">会员中心</Link>扫码购买，支付成功后即时到账。
            </li>
            <li>兑换码：在「我的」页面输入兑换码兑换积分或会员时长。</li>
          </ul>
          {setting.isError && config.isError ? <Alert type="warning" showIcon title="奖励数值加载失败，请稍后刷新" /> : null}
        </section>
        <section className="panel">
          <h2>说明</h2>
          <ul className="doc-list">
            <li>积分仅限本账号使用，不可提现、转让。</li>
            <li>积分明细可在「我的」页面查看，每一笔增减均有记录。</li>
            <li>
              购买相关条款见<Link to="/purchaseAgreement">《会员服务协议》</Link>。
            </li>
          </ul>
        </section>
      </div>
    </PageFrame>
  );
}
