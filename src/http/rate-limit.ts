import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { App } from './app-types.js';
import { ApiError } from './errors.js';

/** Every limit is so many requests a minute (COMPAT.md "Users and the rest"). */
export const WINDOW_MS = 60_000;

/**
 * COMPAT.md: the lower per-endpoint limits, each a bucket of its own per organisation. A call of one of
 * these classes counts against its class only, not the organisation's general budget: polling an export's
 * progress in a tight loop (the R and Python clients do) leaves the rest of the API alone (decision 0010).
 */
export const LIMIT_CLASSES = {
  eventSubscriptions: { perMinute: 120, calls: 'event subscription calls' },
  exportStart: { perMinute: 100, calls: 'response export starts' },
  exportProgress: { perMinute: 1000, calls: 'response export progress calls' },
  exportFile: { perMinute: 100, calls: 'response export file downloads' },
} as const;
export type LimitClass = keyof typeof LIMIT_CLASSES;

/** A route's own bucket, as route config: `config: { rateLimit: limitClass('exportStart') }`. */
export function limitClass(name: LimitClass): { groupId: LimitClass } {
  return { groupId: name };
}

/** A class's limit: COMPAT.md's, but never above the organisation's general one (`--rate-limit`). */
export function limitFor(name: LimitClass | undefined, perMinute: number): number {
  return name ? Math.min(LIMIT_CLASSES[name].perMinute, perMinute) : perMinute;
}

export interface BucketOutcome {
  allowed: boolean;
  /** Requests left in the bucket after this one. */
  remaining: number;
  /** Until the bucket is empty again (all `limit` requests available), in milliseconds. */
  resetMs: number;
  /** Until a request is let through again, in milliseconds; 0 when this one was. */
  retryMs: number;
  /** The bucket's state to keep: its theoretical arrival time (GCRA), epoch microseconds. */
  tat: number;
}

/**
 * A leaky bucket as the generic cell rate algorithm: the bucket holds `limit` requests and drains one every
 * `windowMs / limit`. `tat` is when it will be empty (undefined or past: it is empty now). A full minute's
 * `limit` pass at once; the next waits for one request's worth to drain. Whole microseconds, so the sums
 * are exact (7 a minute lets the 7th through); the interval is rounded down, which errs for the caller by
 * under a microsecond a request. Pure: the Redis script below does the same arithmetic, and the caller
 * recomputes its answer from the `tat` the script read.
 */
export function takeFromBucket(
  tat: number | undefined,
  nowMs: number,
  limit: number,
  windowMs: number,
): BucketOutcome {
  const { now, interval, window } = inMicroseconds(nowMs, limit, windowMs);
  const start = Math.max(tat ?? now, now);
  const next = start + interval;
  if (next - now > window)
    return {
      allowed: false,
      remaining: 0,
      resetMs: (start - now) / 1000,
      retryMs: (next - window - now) / 1000,
      tat: start,
    };
  const remaining = Math.floor((window - (next - now)) / interval);
  return { allowed: true, remaining, resetMs: (next - now) / 1000, retryMs: 0, tat: next };
}

function inMicroseconds(nowMs: number, limit: number, windowMs: number) {
  const window = windowMs * 1000;
  return { now: Math.floor(nowMs * 1000), interval: Math.max(1, Math.floor(window / limit)), window };
}

/** Where buckets live: this process's memory, or Redis shared by every API node. */
export interface Buckets {
  take(key: string, limit: number, windowMs: number): Promise<BucketOutcome>;
  close(): Promise<void>;
}

/** Drained buckets are forgotten once this many are kept (an empty bucket and a missing one are the same). */
const LOCAL_SWEEP_AT = 10_000;

export class LocalBuckets implements Buckets {
  private readonly tats = new Map<string, number>();
  constructor(private readonly clock: Clock) {}

  async take(key: string, limit: number, windowMs: number): Promise<BucketOutcome> {
    const now = this.clock.now().getTime();
    const outcome = takeFromBucket(this.tats.get(key), now, limit, windowMs);
    if (outcome.allowed) this.tats.set(key, outcome.tat);
    if (this.tats.size > LOCAL_SWEEP_AT) this.sweep(now * 1000);
    return outcome;
  }

  private sweep(nowMicros: number): void {
    for (const [key, tat] of this.tats) if (tat <= nowMicros) this.tats.delete(key);
  }

  async close(): Promise<void> {}
}

/**
 * takeFromBucket, atomically on Redis: reads the bucket's tat, stores the new one if the request passes,
 * answers the tat it read. Time is the API node's clock, passed in with the interval and the window, all in
 * whole microseconds (exact in Lua's doubles up to 2^53). A key expires a whole window after the last call
 * that passed: the bucket is empty by then (it never holds more than a window), and the expiry runs on
 * Redis's clock, not the nodes', so a key that expired as its bucket emptied by the nodes' clock would lose
 * calls whenever the two clocks disagree on how much time passed.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local stored = redis.call('GET', KEYS[1])
local start = now
if stored then start = math.max(tonumber(stored), now) end
local nextTat = start + interval
if nextTat - now <= window then
  redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', math.ceil(window / 1000))
end
return stored or ''
`;

type TakeCommand = (key: string, now: number, interval: number, window: number) => Promise<string>;

/** A Redis that does not answer within this is taken as down for that request (which then passes). */
const DEFAULT_REDIS_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** While Redis is down, one request a second asks it again; the others pass without waiting for it. */
const REDIS_PROBE_INTERVAL_MS = 1_000;

/** A request passed without asking Redis, which failed less than a probe interval ago. */
class RedisDown extends Error {}

/**
 * Buckets in Redis. When Redis is unreachable or does not answer, requests pass (fail open, decision
 * 0010): one warning when that starts, one line when Redis answers again; never a line per request.
 */
export class RedisBuckets implements Buckets {
  private reachable = true;
  private probeAtMs = 0;
  private readonly redis: Redis;
  private readonly takeCommand: TakeCommand;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    commandTimeoutMs = DEFAULT_REDIS_TIMEOUT_MS,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      // A request never waits for a connection: without one it passes at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    });
    // ioredis reports each failed reconnection as an 'error' event; without a listener it prints each one.
    this.redis.on('error', (error: Error) => this.unreachable(error));
    this.redis.defineCommand('fieldworkTakeFromBucket', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    const commands = this.redis as unknown as { fieldworkTakeFromBucket: TakeCommand };
    this.takeCommand = commands.fieldworkTakeFromBucket.bind(this.redis);
  }

  /** Connects, bounded in time; if Redis is not there the node serves on, unlimited, and ioredis retries. */
  async connect(): Promise<void> {
    await this.redis.connect().catch((error: Error) => this.unreachable(error));
  }

  async take(key: string, limit: number, windowMs: number): Promise<BucketOutcome> {
    const nowMs = this.clock.now().getTime();
    if (!this.reachable && nowMs < this.probeAtMs) throw new RedisDown('Redis is unreachable');
    const { now, interval, window } = inMicroseconds(nowMs, limit, windowMs);
    let stored: string;
    try {
      stored = await this.takeCommand(this.prefix + key, now, interval, window);
    } catch (error) {
      this.unreachable(error as Error);
      throw error;
    }
    if (!this.reachable) {
      this.reachable = true;
      this.log.info('rate limits: Redis answers again; limits hold across nodes');
    }
    return takeFromBucket(stored ? Number(stored) : undefined, nowMs, limit, windowMs);
  }

  private unreachable(error: Error): void {
    this.probeAtMs = this.clock.now().getTime() + REDIS_PROBE_INTERVAL_MS;
    if (!this.reachable) return;
    this.reachable = false;
    this.log.warn(
      { error: error.message },
      'rate limits: Redis is unreachable; requests pass unlimited until it answers again',
    );
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export interface RateLimiter {
  perMinute: number;
  buckets: Buckets;
}

/** The limiter this node uses, or undefined when limits are off (`--rate-limit 0`). */
export async function createRateLimiter(
  config: Pick<Config, 'rateLimit' | 'redisUrl' | 'redisKeyPrefix' | 'redisTimeoutMs'>,
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<RateLimiter | undefined> {
  if (config.rateLimit === 0) return undefined;
  if (!config.redisUrl) return { perMinute: config.rateLimit, buckets: new LocalBuckets(clock) };
  const prefix = config.redisKeyPrefix ?? 'fieldwork:ratelimit:';
  const buckets = new RedisBuckets(config.redisUrl, prefix, clock, log, config.redisTimeoutMs);
  await buckets.connect();
  return { perMinute: config.rateLimit, buckets };
}

const classOf = (request: FastifyRequest): LimitClass | undefined => {
  const routeLimit = request.routeOptions.config.rateLimit;
  return routeLimit ? (routeLimit.groupId as LimitClass | undefined) : undefined;
};

/**
 * @fastify/rate-limit on every route of an authenticated scope, registered after its authentication hook:
 * the plugin's hooks are route-level, which run after the scope's, so the principal is known. The bucket is
 * the caller's organisation and the route's class (`<org>:all` for the general one; the plugin appends a
 * class's groupId to the key). Its store is ours: the same buckets for every route and both scopes.
 */
export async function registerRateLimits(app: App, limiter: RateLimiter | undefined): Promise<void> {
  if (!limiter) return;
  await app.register(fastifyRateLimit, {
    hook: 'onRequest',
    timeWindow: WINDOW_MS,
    max: (request) => limitFor(classOf(request), limiter.perMinute),
    // Calls without a principal are not counted against any organisation.
    keyGenerator: (request) => `${request.principal?.organizationId}:${classOf(request) ? '' : 'all'}`,
    allowList: (request) => !request.principal,
    store: storeFor(limiter.buckets),
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (request, context) => tooManyRequests(classOf(request), context.max, context.ttl),
  });
  app.addHook('onSend', copyLegacyHeaders);
}

/** The plugin's store interface over our buckets: `current` past `max` means refused, `ttl` its wait. */
class BucketStore implements FastifyRateLimitStore {
  constructor(private readonly buckets: Buckets) {}

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    this.buckets.take(key, max, timeWindow).then(
      (outcome) =>
        callback(
          null,
          outcome.allowed
            ? { current: max - outcome.remaining, ttl: outcome.resetMs }
            : { current: max + 1, ttl: outcome.retryMs },
        ),
      (error: Error) => callback(error),
    );
  }

  /** The same store for every route: a class's routes share their bucket through the key, not the route. */
  child(): FastifyRateLimitStore {
    return this;
  }
}
type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/** The plugin constructs its store from a class. */
function storeFor(buckets: Buckets): FastifyRateLimitStoreCtor {
  return class extends BucketStore {
    constructor() {
      super(buckets);
    }
  };
}

/** 429 FW_RATE_1 in the v3 envelope; the plugin has set Retry-After and the RateLimit headers. */
export function tooManyRequests(name: LimitClass | undefined, max: number, waitMs: number): ApiError {
  const calls = name ? LIMIT_CLASSES[name].calls : 'calls';
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return ApiError.of(
    'FW_RATE_1',
    `Too many requests: this organization may make ${max} ${calls} a minute; retry after ${seconds} seconds.`,
  );
}

/** The IETF draft's RateLimit-* headers, also as the X-RateLimit-* most clients read. */
function copyLegacyHeaders(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const limit = reply.getHeader('ratelimit-limit');
  if (limit !== undefined) {
    reply.header('x-ratelimit-limit', limit);
    reply.header('x-ratelimit-remaining', reply.getHeader('ratelimit-remaining'));
    reply.header('x-ratelimit-reset', reply.getHeader('ratelimit-reset'));
  }
  done(null, payload);
}
