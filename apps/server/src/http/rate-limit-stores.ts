import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

const require = createRequire(import.meta.url);

interface Count {
  current: number;
  ttl: number;
}

/** @fastify/rate-limit's store contract (its LocalStore and RedisStore implement it). */
export interface RateLimitStore {
  incr(key: string, cb: (err: Error | null, res: Count | null) => void, timeWindow: number, max: number): void;
  child(params: StoreParams): RateLimitStore;
}

/** What the plugin hands a store: its merged limit settings, and for a route's own limit the route. */
interface StoreParams {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  max: unknown;
  timeWindow: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
}

type StoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => RateLimitStore;
// The plugin's own stores, so that a count taken here is the count the plugin reads (same keys, same Lua script).
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass;

/** The limit a route's calls count against: the route's own (its `config.rateLimit`) or the global one. */
export interface RouteLimit {
  store: RateLimitStore;
  /** Calls allowed per window for a key. */
  max: (key: string) => number;
  timeWindow: number;
}

/**
 * The rate limiter's stores, kept where code outside Fastify's pipeline can count against them (http/hot-lane.ts
 * answers polls before routing and must spend the same budget). Given to @fastify/rate-limit as its `store`, this
 * builds the plugin's own LocalStore, or RedisStore when Redis is configured (limits shared by every process), and
 * records the child store of each route that declares its own limit.
 */
export class RateLimitStores {
  private root: RouteLimit | null = null;
  private readonly routes = new Map<string, RouteLimit>();

  constructor(
    private readonly opts: {
      redis?: Redis | null;
      nameSpace?: string;
      /** The global limit for a key (`s:<session>` or `ip:<address>`). */
      maxFor: (key: string) => number;
    },
  ) {}

  /** The global limit for a key. */
  maxFor(key: string): number {
    return this.opts.maxFor(key);
  }

  /** The class for the plugin's `store` option. */
  get storeClass(): FastifyRateLimitStoreCtor {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the plugin constructs the class; it reports back here
    const stores = this;
    return class {
      constructor(params: StoreParams) {
        const { redis, nameSpace } = stores.opts;
        const inner = redis
          ? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace)
          : new LocalStore(params.continueExceeding, params.exponentialBackoff);
        const store = stores.recording(inner);
        stores.root = { store, max: stores.opts.maxFor, timeWindow: windowOf(params) };
        // A constructor may hand back another object: the plugin keeps the recording store.
        return store;
      }
    } as unknown as FastifyRateLimitStoreCtor;
  }

  /** The limit that `method url` (the route's registered URL) counts against; null before the plugin is registered. */
  limitOf(method: string, url: string): RouteLimit | null {
    return this.routes.get(`${method} ${url}`) ?? this.root;
  }

  private recording(inner: RateLimitStore): RateLimitStore {
    return {
      incr: (key, cb, timeWindow, max) => inner.incr(key, cb, timeWindow, max),
      child: (params) => {
        const store = this.recording(inner.child(params));
        const { method, url } = params.routeInfo ?? {};
        const { max } = params;
        // A route that sets only its window keeps the global max (a function of the key).
        const limit: RouteLimit = { store, max: typeof max === 'number' ? () => max : this.opts.maxFor, timeWindow: windowOf(params) };
        if (url) for (const m of Array.isArray(method) ? method : [method]) this.routes.set(`${m} ${url}`, limit);
        return store;
      },
    };
  }
}

function windowOf(params: StoreParams): number {
  if (typeof params.timeWindow !== 'number') throw new Error('rate limit: a fixed time window is expected');
  return params.timeWindow;
}

/**
 * One more call against `limit` for `key`: true while within the limit. The local store answers at once, and so does
 * this (no promise on the hot lane's path); the Redis store answers later.
 */
export function spend(limit: RouteLimit, key: string): boolean | Promise<boolean> {
  const max = limit.max(key);
  let answered: { within: boolean } | { err: Error } | undefined;
  let waiting: { resolve: (within: boolean) => void; reject: (err: Error) => void } | undefined;
  limit.store.incr(
    key,
    (err, res) => {
      const outcome: { within: boolean } | { err: Error } = err || !res ? { err: err ?? new Error('rate limit store answered nothing') } : { within: res.current <= max };
      if (!waiting) answered = outcome;
      else if ('err' in outcome) waiting.reject(outcome.err);
      else waiting.resolve(outcome.within);
    },
    limit.timeWindow,
    max,
  );
  if (answered) {
    if ('err' in answered) throw answered.err;
    return answered.within;
  }
  return new Promise((resolve, reject) => {
    waiting = { resolve, reject };
  });
}
