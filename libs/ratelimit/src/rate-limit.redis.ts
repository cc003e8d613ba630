/**
 * Rate limiting across gateway replicas: one Redis counter per key and fixed window, checked and
 * counted by one Lua script (atomic on the server, one round trip). Denied hits are not counted,
 * like the in-memory store, and every counter carries an expiry so Redis never fills up. A counter
 * lives one window past its own, so the usage read can still report the previous window.
 */
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { RateLimitResult, RateLimitStore, windowStart, WindowUsage } from './rate-limit.port';

/**
 * KEYS[1] = counter; ARGV = limit, ttl ms. Returns {allowed 0|1, count after this hit}.
 * The expiry is (re)applied on every allowed hit, so a key can never be left without one.
 */
export const HIT_SCRIPT = `
local limit = tonumber(ARGV[1])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= limit then
  return {0, count}
end
count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count}
`;

const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');
/** Counters outlive their window a little, so clock skew between replicas cannot reset one early. */
const EXPIRY_GRACE_MS = 5_000;

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Put in front of every key, e.g. `wellstream:rl:`. */
  keyPrefix: string;
  logger?: { warn(message: string, meta?: Record<string, unknown>): unknown };
  /** A command not answered in this time fails (default 1000 ms). */
  commandTimeoutMs?: number;
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly redis: Redis;
  private closed = false;

  constructor(private readonly options: RedisRateLimitStoreOptions) {
    // Fail fast while Redis is away (a command timeout, and no offline queue once connected):
    // callers have a fallback, and a request must not wait seconds for a limit. Commands sent
    // while the very first connection is being made are queued (bounded by the timeout).
    // ioredis keeps reconnecting on its own.
    this.redis = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      enableReadyCheck: true,
      enableOfflineQueue: true,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(100 * times, 1_000),
      lazyConnect: false,
    });
    this.redis.once('ready', () => {
      this.redis.options.enableOfflineQueue = false;
    });
    this.redis.on('error', (err) => this.warnThrottled(err));
  }

  private lastWarnAt = 0;

  /** A down server errors on every reconnect attempt; one line per 10 s is enough. */
  private warnThrottled(err: unknown): void {
    if (Date.now() - this.lastWarnAt < 10_000) return;
    this.lastWarnAt = Date.now();
    this.options.logger?.warn('redis connection error', { error: err });
  }

  /** The Redis key of a counter (exposed for tests that inspect TTLs). */
  keyFor(key: string, windowMs: number, now = Date.now()): string {
    return `${this.options.keyPrefix}${key}:${windowMs}:${windowStart(now, windowMs)}`;
  }

  async hit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
    const window = windowStart(now, windowMs);
    const redisKey = this.keyFor(key, windowMs, now);
    // Until the end of the next window: the usage read reports this one as "previous" then.
    const ttl = Math.max(1_000, window + 2 * windowMs - now) + EXPIRY_GRACE_MS;
    const [allowed, count] = (await this.evalHit(redisKey, limit, ttl)) as [number, number];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAt: window + windowMs };
  }

  /** EVALSHA first (the script is usually cached on the server); EVAL once when it is not. */
  private async evalHit(redisKey: string, limit: number, ttl: number): Promise<unknown> {
    try {
      return await this.redis.evalsha(HIT_SHA, 1, redisKey, limit, ttl);
    } catch (err) {
      if (!String((err as Error)?.message).startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(HIT_SCRIPT, 1, redisKey, limit, ttl);
    }
  }

  /** Both windows of every key in one MGET. */
  async usage(keys: readonly string[], windowMs: number, now = Date.now()): Promise<WindowUsage[]> {
    if (keys.length === 0) return [];
    const window = windowStart(now, windowMs);
    const names = keys.flatMap((k) => [this.keyFor(k, windowMs, window), this.keyFor(k, windowMs, window - windowMs)]);
    const values = await this.redis.mget(...names);
    const n = (v: string | null | undefined) => (v ? Number(v) : 0);
    return keys.map((_k, i) => ({ windowStart: window, current: n(values[2 * i]), previous: n(values[2 * i + 1]) }));
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
