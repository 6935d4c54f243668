import { useSearchParams } from 'react-router';
import { ComingSoon } from '../../components/page-frame';

export default function Page() {
  const [params] = useSearchParams();
  const code = params.get('invitationCode') ?? params.get('integralCode');
  return (
    <ComingSoon testId="page-activity" title="活动中心" description="邀请好友、兑换积分等活动将在这里展示。">
      {code ? (
        <p className="activity-code" data-testid="activity-code">
          {params.has('invitationCode') ? '邀请码' : '积分兑换码'}：{code}
        </p>
      ) : null}
    </ComingSoon>
  );
}
