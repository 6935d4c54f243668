import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { vipApi } from '../../api/vip';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { LS, lsSet } from '../../lib/storage-keys';
import { InvitePanel } from '../../features/vip/invite-panel';
import { RedeemCode } from '../../features/vip/redeem-code';
import { dateTime } from '../../features/vip/format';
import '../../features/vip/vip.css';
import { queryKeys } from '../../api/query-keys';

function openLogin(invitationCode?: string | null) {
  // The login modal sends the stored code with doLogin0 / doLoginWx (startup already stored it
  // from the address; storing again covers a code typed after start-up).
  if (invitationCode) lsSet(LS.pendingInvitationCode, invitationCode);
  useGlobalStore.getState().openModal('login');
}

function InviteLanding(props: { code: string; inviteeReward: number | undefined }) {
  const isLogin = useIsLogin();
  return (
    <div className="activity-hero" data-testid="invite-landing">
      <h2>你的好友邀请你加入砚</h2>
      <p>
        砚是面向内容创作者的 AI 写作与多平台发布工具。
        {props.inviteeReward ? `通过邀请注册即得 ${props.inviteeReward} 积分。` : ''}
      </p>
      <p className="activity-code" data-testid="activity-code">
        邀请码：{props.code}
      </p>
      {isLogin === true ? (
        <Alert type="info" showIcon title="你已登录，邀请奖励仅对新注册的账号有效" />
      ) : (
        <Button type="primary" size="large" onClick={() => openLogin(props.code)} data-testid="invite-login" style={{ background: '#fff', color: '#1f4e79' }}>
          接受邀请，立即注册
        </Button>
      )}
    </div>
  );
}

function IntegralCodeLanding(props: { code: string }) {
  const isLogin = useIsLogin();
  return (
    <section className="panel" data-testid="integral-landing">
      <h2>兑换积分</h2>
      <p className="activity-code" data-testid="activity-code">
        积分兑换码：{props.code}
      </p>
      {isLogin === true ? (
        <RedeemCode initial={props.code} via="rights" />
      ) : (
        <>
          <p className="muted">登录后即可兑换到你的账号。</p>
          <Button type="primary" block onClick={() => openLogin()} data-testid="integral-login">
            登录后兑换
          </Button>
        </>
      )}
    </section>
  );
}

export default function ActivityPage() {
  const [params] = useSearchParams();
  const isLogin = useIsLogin();
  const invitationCode = params.get('invitationCode');
  const integralCode = params.get('integralCode');
  const config = useQuery({ queryKey: queryKeys.vip.activityConfig, queryFn: vipApi.activityConfig, retry: false, staleTime: 60_000 });
  const contest = useQuery({ queryKey: queryKeys.activity.contestTimestamp, queryFn: vipApi.contestTimestamp, retry: false, staleTime: 60_000 });

  let rules;
  if (config.isPending) rules = <Skeleton active paragraph={{ rows: 3 }} data-testid="activity-loading" />;
  else if (config.isError) {
    rules = <Alert type="error" showIcon data-testid="activity-error" title="活动信息加载失败" action={<Button onClick={() => config.refetch()}>重试</Button>} />;
  } else {
    const c = config.data;
    rules = (
      <ul className="doc-list" data-testid="activity-rules">
        <li>
          邀请好友：好友用你的邀请码注册，你得 <strong>{c.invite.inviterReward}</strong> 积分，好友得 <strong>{c.invite.inviteeReward}</strong> 积分。
        </li>
        {c.dailyReward > 0 ? (
          <li>
            每日奖励：每天登录领取 <strong>{c.dailyReward}</strong> 积分。
          </li>
        ) : null}
        {c.returnReward > 0 ? (
          <li>
            回归奖励：超过 {c.returnAfterDays} 天未领取，回来领取时额外得 <strong>{c.returnReward}</strong> 积分。
          </li>
        ) : null}
      </ul>
    );
  }

  const ct = contest.data?.contest;
  return (
    <PageFrame testId="page-activity" title="活动中心">
      <div className="vip-page">
        {invitationCode ? <InviteLanding code={invitationCode} inviteeReward={config.data?.invite.inviteeReward} /> : null}
        {integralCode ? <IntegralCodeLanding code={integralCode} /> : null}
        {ct ? (
          <section className="panel" data-testid="activity-contest">
            <h2>
              {ct.name} {ct.active ? <Tag color="green">进行中</Tag> : <Tag>即将开始</Tag>}
            </h2>
            <p className="muted" style={{ margin: 0 }}>
              {dateTime(ct.startAt)} 至 {dateTime(ct.endAt)}
            </p>
          </section>
        ) : null}
        <section className="panel">
          <h2>活动规则</h2>
          {rules}
        </section>
        {isLogin === true ? (
          <section className="panel">
            <h2>邀请好友</h2>
            <InvitePanel />
          </section>
        ) : !invitationCode && !integralCode ? (
          <section className="panel">
            <p className="muted">登录后获取你的专属邀请码。</p>
            <Button type="primary" block onClick={() => openLogin()}>
              登录 / 注册
            </Button>
          </section>
        ) : null}
        <p className="muted">
          更多说明见<Link to="/pointsRule">积分规则</Link>。
        </p>
      </div>
    </PageFrame>
  );
}
