import { useQuery } from '@tanstack/react-query';
import { limits } from '@inkstone/shared';
import { userApi } from '../../api/user';
import { LS, lsGet, lsSet } from '../../lib/storage-keys';

export const releaseKey = ['app', 'release', limits.appVersion] as const;

/** The server's current version and notes (the app version is sent); also says whether a download page exists. */
export const useRelease = () => useQuery({ queryKey: releaseKey, queryFn: () => userApi.release(limits.appVersion), staleTime: 30 * 60_000, retry: false });

/** The release note shows once per version: true when this version's note has not been seen on this device. */
export const releaseUnseen = (version: string, seen: string | null) => version !== '' && seen !== version;
export const releaseSeen = () => lsGet(LS.releaseNoteSeen);
export const markReleaseSeen = (version: string) => lsSet(LS.releaseNoteSeen, version);
