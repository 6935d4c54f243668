import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface PersonalInfoState {
  nickname: string;
  creatorType: string | null;
  industries: string[];
  customIndustries: string[];
  userPlatforms: string[];
  platform: string | null;
  firstCreatePersona: boolean;
  setInfo(patch: Partial<Omit<PersonalInfoState, 'setInfo' | 'clear'>>): void;
  clear(): void;
}

const empty = { nickname: '', creatorType: null, industries: [], customIndustries: [], userPlatforms: [], platform: null, firstCreatePersona: false };

export const usePersonalInfoStore = create<PersonalInfoState>()(
  persist(
    (set) => ({
      ...empty,
      setInfo: (patch) => set(patch),
      clear: () => set(empty),
    }),
    {
      name: 'personal-info',
      storage: createJSONStorage(() => localStorage),
      // Spec section 3: only the industry choices survive a reload.
      partialize: (s) => ({ industries: s.industries, customIndustries: s.customIndustries }),
    },
  ),
);
