import { create } from 'zustand';

export interface SensitiveModalInfo {
  type: string;
  state: boolean;
  title: string;
  content: string;
  timestamp: number;
  /** From the 933 reply: the words found and a suggestion for each. */
  words: string[];
  suggestions: string[];
}

interface NetworkState {
  networkState: 'online' | 'offline';
  IP: string | null;
  sensitiveModalInfo: SensitiveModalInfo;
  setNetworkState(s: 'online' | 'offline'): void;
  setIP(ip: string | null): void;
  setSensitiveModalInfo(info: Partial<SensitiveModalInfo>): void;
}

export const useNetworkStore = create<NetworkState>()((set) => ({
  networkState: 'online',
  IP: null,
  sensitiveModalInfo: { type: '', state: false, title: '', content: '', timestamp: 0, words: [], suggestions: [] },
  setNetworkState: (networkState) => set({ networkState }),
  setIP: (IP) => set({ IP }),
  setSensitiveModalInfo: (info) => set((s) => ({ sensitiveModalInfo: { ...s.sensitiveModalInfo, ...info, timestamp: Date.now() } })),
}));
