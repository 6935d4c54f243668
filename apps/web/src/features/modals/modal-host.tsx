import { lazy, Suspense } from 'react';
import { useGlobalStore } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';

const LoginModal = lazy(() => import('../login-modal/login-modal'));
const ProfileFillModal = lazy(() => import('./profile-fill-modal'));
const ChangeNicknameModal = lazy(() => import('./change-nickname-modal'));
const InvitationCodeModal = lazy(() => import('./invitation-code-modal'));
const LackPointsModal = lazy(() => import('../vip/lack-points-modal'));

/** Modals load their code the first time they open, keeping the home route light. */
export function ModalHost() {
  const m = useGlobalStore((s) => s.modalVisibleMap);
  const lackPoints = useUserVipStore((s) => s.lackPoints.open);
  return (
    <Suspense fallback={null}>
      {m.login ? <LoginModal /> : null}
      {m.profileFill && !m.login ? <ProfileFillModal /> : null}
      {m.changeNickname ? <ChangeNicknameModal /> : null}
      {m.invitationCode ? <InvitationCodeModal /> : null}
      {lackPoints ? <LackPointsModal /> : null}
    </Suspense>
  );
}
