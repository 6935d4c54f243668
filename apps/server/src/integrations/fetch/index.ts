import type { Config } from '../../config.js';
import { SafeFetch } from './safe-fetch.js';
import type { SafeFetcher } from './types.js';

/**
 * The SSRF-safe client for user-supplied URLs. It has no embedded default to swap: it is always this client.
 * SAFE_FETCH_ALLOW_HOSTS (tests only; refused at start-up in production) lets loopback stand-ins through.
 */
export function createSafeFetch(config: Config): SafeFetcher {
  return new SafeFetch({ allowHosts: config.SAFE_FETCH_ALLOW_HOSTS });
}
