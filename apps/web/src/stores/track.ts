import { create } from 'zustand';
import type { SysTrack, UserTrack } from '@inkstone/shared';

interface TrackState {
  /** Every system track with its sub-tracks (GET /topic/v3/track/info). */
  trackData: SysTrack[];
  /** The user's own tracks. */
  customTrackData: UserTrack[];
  isCreatorType: boolean;
  sysTrack: string[];
  userTrack: string[];
  setTracks(patch: Partial<Omit<TrackState, 'setTracks'>>): void;
}

/** Profile fields sysTrackSelected / userTrackSelected are pipe-separated lists. */
export const splitTracks = (v: string | null | undefined): string[] =>
  v
    ? v
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export const useTrackStore = create<TrackState>()((set) => ({
  trackData: [],
  customTrackData: [],
  isCreatorType: false,
  sysTrack: [],
  userTrack: [],
  setTracks: (patch) => set(patch),
}));
