import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PlatformInfo } from '@inkstone/shared';
import { publishApi } from '../../api/publish';
import { queryKeys } from '../../api/query-keys';
import { useIsLogin } from '../../stores/global';

export type { PlatformInfo };

const noPlatforms: PlatformInfo[] = [];

/**
 * The platforms this server publishes to, in the operator's order (PUBLISH_PLATFORMS), with their names, rules and
 * how each logs in. The server owns the list: the web names no platform itself.
 */
export function usePlatforms(enabled = true) {
  const isLogin = useIsLogin();
  const q = useQuery({
    queryKey: queryKeys.publish.platforms,
    queryFn: publishApi.config,
    enabled: enabled && isLogin === true,
    staleTime: 5 * 60_000,
  });
  return { ...q, platforms: q.data?.platforms ?? noPlatforms };
}

/** The display name of a platform id (the id itself while the list loads or for a platform no longer offered). */
export function usePlatformName(): (platform: string | undefined) => string {
  const { platforms } = usePlatforms();
  return useCallback((p) => platforms.find((x) => x.platform === p)?.platformName ?? p ?? '未知平台', [platforms]);
}
