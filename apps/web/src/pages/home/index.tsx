import { lazy, Suspense, useRef } from 'react';
import { PageFrame } from '../../components/page-frame';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { LS, lsGet } from '../../lib/storage-keys';
import '../../features/writing/writing.css';
import { useHomeInputSync } from './home-input-sync';
import { useHomeForm } from './use-home-form';
import { HomeInput } from './home-input';
import { HomeSuggest } from './home-suggest';

const HomeTour = lazy(() => import('../../features/modals/home-tour'));

export default function HomePage() {
  const isLogin = useIsLogin();
  const loggedIn = isLogin === true;
  const providedProfile = useGlobalStore((s) => s.modalVisibleMap.isProvidedProfile);
  const reward = useGlobalStore((s) => s.userReward);
  const inputRef = useRef<HTMLDivElement>(null);
  const showTour = loggedIn && providedProfile === true && !lsGet(LS.tourHomeDone);
  useHomeInputSync(loggedIn);
  const f = useHomeForm(loggedIn);

  return (
    <PageFrame testId="page-home" title="今天想写点什么？">
      <HomeInput f={f} inputRef={inputRef} />
      <HomeSuggest f={f} />
      {reward ? (
        <p className="muted" data-testid="daily-reward">
          每日登录奖励 {reward.dailyReward} 积分
        </p>
      ) : null}
      {showTour ? (
        <Suspense fallback={null}>
          <HomeTour target={() => inputRef.current} />
        </Suspense>
      ) : null}
    </PageFrame>
  );
}
