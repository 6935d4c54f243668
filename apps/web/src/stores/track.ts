import { create } from 'zustand';

interface TrackState {
  trackData: unknown[];
  customTrackData: unknown[];
  isCreatorType: boolean;
  sysTrack: string[];
  userTrack: string[];
  setTracks(patch: Partial<Omit<TrackState, 'setTracks'>>): void;
}

/** Profile fields sysTrackSelected / userTrackSelected are pipe-separated lists. */
export const splitTracks = (v: string | null | undefined): string[] => (v ? v.split('|').map((s) => s.trim()).filter(Boolean) : []);

export const useTrackStore = create<TrackState>()((set) => ({
  trackData: [],
  customTrackData: [],
  isCreatorType: false,
  sysTrack: [],
  userTrack: [],
  setTracks: (patch) => set(patch),
}));
