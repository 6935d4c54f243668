import { create } from 'zustand';

export type LoginState = 'UNKNOWN' | boolean;

/**
 * Modals that exist as state (spec section 2); their visibility lives here with isLogin. The spec's change-password
 * modal is left out: there is no password login (docs/spec/notes.md, deviations).
 */
export type ModalName =
  | 'login'
  | 'newbieGuide'
  | 'releaseNote'
  | 'information'
  | 'profileFill'
  | 'activity'
  | 'download'
  | 'guide'
  | 'platform'
  | 'tourStep'
  | 'invitationCode'
  | 'changeNickname'
  | 'sensitiveContent';

export interface PublishData {
  articleCount: number;
  articleIncrease: number;
  readCount: number;
  readIncrease: number;
  followCount: number;
  followIncrease: number;
}

export interface UserReward {
  dailyReward: number;
  returnReward: number;
  logo: string;
}

interface GlobalState {
  draftList: unknown[];
  publishList: unknown[];
  publishData: PublishData;
  userReward: UserReward | null;
  unreadNoticeNum: number;
  feedInfoId: string | null;
  feedbackReply: unknown;
  inviteSuccessInfo: unknown;
  modalVisibleMap: Record<ModalName, boolean> & { isLogin: LoginState; isProvidedProfile: 'UNKNOWN' | boolean };
  setLogin(isLogin: LoginState): void;
  setProvidedProfile(v: 'UNKNOWN' | boolean): void;
  openModal(name: ModalName): void;
  closeModal(name: ModalName): void;
  setUnreadNoticeNum(n: number): void;
  setUserReward(r: UserReward | null): void;
}

const closedModals: Record<ModalName, boolean> = {
  login: false,
  newbieGuide: false,
  releaseNote: false,
  information: false,
  profileFill: false,
  activity: false,
  download: false,
  guide: false,
  platform: false,
  tourStep: false,
  invitationCode: false,
  changeNickname: false,
  sensitiveContent: false,
};

export const useGlobalStore = create<GlobalState>()((set) => ({
  draftList: [],
  publishList: [],
  publishData: { articleCount: 0, articleIncrease: 0, readCount: 0, readIncrease: 0, followCount: 0, followIncrease: 0 },
  userReward: null,
  unreadNoticeNum: 0,
  feedInfoId: null,
  feedbackReply: null,
  inviteSuccessInfo: null,
  modalVisibleMap: { ...closedModals, isLogin: 'UNKNOWN', isProvidedProfile: 'UNKNOWN' },
  setLogin: (isLogin) => set((s) => ({ modalVisibleMap: { ...s.modalVisibleMap, isLogin } })),
  setProvidedProfile: (isProvidedProfile) => set((s) => ({ modalVisibleMap: { ...s.modalVisibleMap, isProvidedProfile } })),
  openModal: (name) => set((s) => ({ modalVisibleMap: { ...s.modalVisibleMap, [name]: true } })),
  closeModal: (name) => set((s) => ({ modalVisibleMap: { ...s.modalVisibleMap, [name]: false } })),
  setUnreadNoticeNum: (unreadNoticeNum) => set({ unreadNoticeNum }),
  setUserReward: (userReward) => set({ userReward }),
}));

export const useIsLogin = () => useGlobalStore((s) => s.modalVisibleMap.isLogin);
