import { create } from 'zustand';
import { limits } from '@inkstone/shared';

export type CreateType = 'article' | 'graphic';

export interface HomeInputInfo {
  editorContent: { top: unknown; bottom: unknown };
  writeFileListType: string;
  writeFileList: unknown[];
  addQuoteFile: { quoteFile: unknown; timestamp: number } | null;
  onlineSearch: boolean;
  writeType: string;
  abilityType: string | null;
  personaType: string | null;
  personaTypeList: unknown[];
  modelConfigType: string | null;
  abilityTypeList: unknown[];
  graphicModelConfig: unknown;
}

export const defaultHomeInput = (): HomeInputInfo => ({
  editorContent: { top: null, bottom: null },
  writeFileListType: 'file',
  writeFileList: [],
  addQuoteFile: null,
  onlineSearch: false,
  writeType: limits.defaultWriteType,
  abilityType: null,
  personaType: null,
  personaTypeList: [],
  modelConfigType: null,
  abilityTypeList: [],
  graphicModelConfig: null,
});

interface HomeInputState {
  /** Article and graphic inputs are kept apart (spec section 3). */
  article: HomeInputInfo;
  graphic: HomeInputInfo;
  createType: CreateType;
  hiddenTopEditor: boolean;
  likeDataLoading: boolean;
  update(type: CreateType, patch: Partial<HomeInputInfo>): void;
  setCreateType(t: CreateType): void;
  /** Restores defaults but keeps the article abilityTypeList, which is loaded once per session. */
  reset(): void;
}

export const resetHomeInput = (s: Pick<HomeInputState, 'article'>) => ({
  article: { ...defaultHomeInput(), abilityTypeList: s.article.abilityTypeList },
  graphic: defaultHomeInput(),
  createType: 'article' as CreateType,
  hiddenTopEditor: false,
  likeDataLoading: false,
});

export const useHomeInputStore = create<HomeInputState>()((set) => ({
  article: defaultHomeInput(),
  graphic: defaultHomeInput(),
  createType: 'article',
  hiddenTopEditor: false,
  likeDataLoading: false,
  update: (type, patch) => set((s) => ({ [type]: { ...s[type], ...patch } })),
  setCreateType: (createType) => set({ createType }),
  reset: () => set((s) => resetHomeInput(s)),
}));
