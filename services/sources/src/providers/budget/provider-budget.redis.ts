/**
 * The provider budget across replicas: one Redis counter per (provider, window), checked and
 * counted for every window by one Lua script (atomic on the server, one round trip, all or
 * nothing; a user's own windows are more counters in the same script), and the provider's pause
 * as one key holding its end. Every key expires shortly after
 * its window, so Redis never fills up. Keys share a hash tag per provider (one slot on a cluster).
 */
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { BudgetTake, BudgetWindow, ceilingOf, ProviderBudgetStore, UserBudget, windowStart } from './provider-budget.port';

/**
 * KEYS[1] = pause, KEYS[2..n+1] = counters. ARGV[1] = now, then per counter: ceiling, window end,
 * expiry ms. Returns {1, 0} when counted, else {0, ms to wait}.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if paused > now then return {0, paused - now} end
local n = #KEYS - 1
local wait = -1
for i = 1, n do
  local count = tonumber(redis.call('GET', KEYS[i + 1]) or '0')
  if count >= tonumber(ARGV[1 + (i - 1) * 3 + 1]) then
    local w = tonumber(ARGV[1 + (i - 1) * 3 + 2]) - now
    if w > wait then wait = w end
  end
end
if wait >= 0 then return {0, math.max(1, wait)} end
for i = 1, n do
  redis.call('INCR', KEYS[i + 1])
  redis.call('PEXPIRE', KEYS[i + 1], ARGV[1 + (i - 1) * 3 + 3])
end
return {1, 0}
`;

/** KEYS[1] = pause; ARGV = until, expiry ms. Keeps the later of the two ends. */
const PAUSE_SCRIPT = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = tonumber(ARGV[1])
if cur < untilMs then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1
`;

const sha = (s: string) => createHash('sha1').update(s).digest('hex');
const SCRIPTS = { take: { body: TAKE_SCRIPT, sha: sha(TAKE_SCRIPT) }, pause: { body: PAUSE_SCRIPT, sha: sha(PAUSE_SCRIPT) } };
/** Keys outlive their window a little, so clock skew between replicas cannot end one early. */
const GRACE_MS = 5_000;

export interface RedisProviderBudgetOptions {
  url: string;
  /** Put in front of every key, e.g. `wellstream:pb:`. */
  keyPrefix: string;
  logger?: { warn(message: string, meta?: Record<string, unknown>): unknown };
  commandTimeoutMs?: number;
}

export class RedisProviderBudgetStore implements ProviderBudgetStore {
  readonly redis: Redis;
  private closed = false;
  private lastWarnAt = 0;

  constructor(private readonly options: RedisProviderBudgetOptions) {
    this.redis = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(100 * times, 1_000),
    });
    this.redis.on('error', (err) => {
      // A down server errors on every reconnect attempt; one line per 10 s is enough.
      if (Date.now() - this.lastWarnAt < 10_000) return;
      this.lastWarnAt = Date.now();
      this.options.logger?.warn('provider budget: redis connection error', { error: err });
    });
  }

  private pauseKey(key: string): string {
    return `${this.options.keyPrefix}{${key}}:pause`;
  }

  /** A user's counters share the application's hash tag, so one script checks both on a cluster's one slot. */
  counterKey(key: string, windowMs: number, now: number, userId?: string): string {
    return `${this.options.keyPrefix}{${key}}:${userId === undefined ? '' : `u:${userId}:`}${windowMs}:${windowStart(now, windowMs)}`;
  }

  async take(key: string, windows: readonly BudgetWindow[], share: number, now: number, user?: UserBudget): Promise<BudgetTake> {
    const counted = [...windows.map((w) => ({ w, userId: undefined as string | undefined })), ...(user?.windows ?? []).map((w) => ({ w, userId: user!.id }))];
    const keys = [this.pauseKey(key), ...counted.map(({ w, userId }) => this.counterKey(key, w.windowMs, now, userId))];
    const args = [now, ...counted.map(({ w }) => w).flatMap((w) => {
      const end = windowStart(now, w.windowMs) + w.windowMs;
      return [ceilingOf(w.limit, share), end, end - now + GRACE_MS];
    })];
    const [allowed, wait] = (await this.run('take', keys, args)) as [number, number];
    return { allowed: allowed === 1, retryAfterMs: allowed === 1 ? 0 : Number(wait) };
  }

  async pause(key: string, untilMs: number, now: number): Promise<void> {
    if (untilMs <= now) return;
    await this.run('pause', [this.pauseKey(key)], [untilMs, untilMs - now + GRACE_MS]);
  }

  async pausedUntil(key: string): Promise<number> {
    return Number((await this.redis.get(this.pauseKey(key))) ?? 0);
  }

  /** EVALSHA first (usually cached on the server); EVAL once when it is not. */
  private async run(name: keyof typeof SCRIPTS, keys: string[], args: (string | number)[]): Promise<unknown> {
    const s = SCRIPTS[name];
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error)?.message).startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(s.body, keys.length, ...keys, ...args);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
