import { lazy, Suspense, useEffect } from 'react';
import { useGlobalStore } from '../../stores/global';
import { useUserVipStore } from '../../stores/user-vip';
import { markReleaseSeen, releaseSeen, releaseUnseen, useRelease } from './release';

const LoginModal = lazy(() => import('../login-modal/login-modal'));
const ProfileFillModal = lazy(() => import('./profile-fill-modal'));
const ChangeNicknameModal = lazy(() => import('./change-nickname-modal'));
const InvitationCodeModal = lazy(() => import('./invitation-code-modal'));
const LackPointsModal = lazy(() => import('../vip/lack-points-modal'));
const infoModal = <K extends keyof typeof import('./info-modals')>(name: K) => lazy(() => import('./info-modals').then((m) => ({ default: m[name] as () => React.JSX.Element })));
const NewbieGuideModal = infoModal('NewbieGuideModal');
const ReleaseNoteModal = infoModal('ReleaseNoteModal');
const InformationModal = infoModal('InformationModal');
const ActivityModal = infoModal('ActivityModal');
const DownloadModal = infoModal('DownloadModal');
const GuideModal = infoModal('GuideModal');
const PlatformModal = infoModal('PlatformModal');
const SensitiveContentModal = infoModal('SensitiveContentModal');

/**
 * The release note opens once per version on a device that has seen an earlier one; a first visit only records the
 * version (a new user has nothing to compare with), and the user menu's 更新说明 opens it any time.
 */
function ReleaseNoteWatcher() {
  const release = useRelease();
  const version = release.data?.version ?? '';
  useEffect(() => {
    if (!version) return;
    const seen = releaseSeen();
    if (seen === null) markReleaseSeen(version);
    else if (releaseUnseen(version, seen)) useGlobalStore.getState().openModal('releaseNote');
  }, [version]);
  return null;
}

/** Modals load their code the first time they open, keeping the home route light. */
export function ModalHost() {
  const m = useGlobalStore((s) => s.modalVisibleMap);
  const lackPoints = useUserVipStore((s) => s.lackPoints.open);
  return (
    <Suspense fallback={null}>
      <ReleaseNoteWatcher />
      {m.login ? <LoginModal /> : null}
      {m.profileFill && !m.login ? <ProfileFillModal /> : null}
      {m.changeNickname ? <ChangeNicknameModal /> : null}
      {m.invitationCode ? <InvitationCodeModal /> : null}
      {lackPoints ? <LackPointsModal /> : null}
      {m.newbieGuide ? <NewbieGuideModal /> : null}
      {m.releaseNote ? <ReleaseNoteModal /> : null}
      {m.information ? <InformationModal /> : null}
      {m.activity ? <ActivityModal /> : null}
      {m.download ? <DownloadModal /> : null}
      {m.guide ? <GuideModal /> : null}
      {m.platform ? <PlatformModal /> : null}
      {m.sensitiveContent ? <SensitiveContentModal /> : null}
    </Suspense>
  );
}
