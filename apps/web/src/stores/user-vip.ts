import { create } from 'zustand';

export interface UserVipInfo {
  isVip: boolean;
  hwPoints: number;
  expiredTime: string | null;
  vipType: string;
  openPayment: boolean;
  /** need and balance come from the 1501 reply when it carried them; the spec names only the first two. */
  lackPoints: { open: boolean; iDataEventId: string | null; need?: number | null; balance?: number | null };
  allHwPointDic: Record<string, number>;
}

interface UserVipState extends UserVipInfo {
  /** Whether the points API answered at all; it may not exist yet on this server. */
  pointsKnown: boolean;
  setVip(patch: Partial<UserVipInfo> & { pointsKnown?: boolean }): void;
  openLackPoints(iDataEventId: string | null, detail?: { need?: number | null; balance?: number | null }): void;
  closeLackPoints(): void;
  clear(): void;
}

const empty: UserVipInfo & { pointsKnown: boolean } = {
  isVip: false,
  hwPoints: 0,
  expiredTime: null,
  vipType: 'free',
  openPayment: false,
  lackPoints: { open: false, iDataEventId: null },
  allHwPointDic: {},
  pointsKnown: false,
};

/** `score` or `totalScore`, whichever the server gave (spec section 3). */
export const pointsFrom = (v: { score?: number | null; totalScore?: number | null } | null | undefined): number => v?.score ?? v?.totalScore ?? 0;

export const useUserVipStore = create<UserVipState>()((set) => ({
  ...empty,
  setVip: (patch) => set((s) => ({ ...patch, isVip: (patch.vipType ?? s.vipType) === 'vip' })),
  openLackPoints: (iDataEventId, detail) => set({ lackPoints: { open: true, iDataEventId, ...detail } }),
  closeLackPoints: () => set({ lackPoints: { open: false, iDataEventId: null } }),
  clear: () => set(empty),
}));
