/**
 * Keeps rate limiting answering while its shared store (Redis) is unreachable, like Kong's
 * `fault_tolerant` and Envoy's `failure_mode_deny=false`:
 * - `open` (default): every hit the store cannot count is counted by an in-process store instead,
 *   so each gateway process still enforces the token's limit on its own share of the traffic
 *   (approximate: N replicas let up to N × the limit through, and counts restart after the outage);
 * - `closed`: such a hit is refused with RateLimitStoreUnavailableError (the gateway answers 503
 *   with Retry-After).
 * Either way a warning is logged (at most once per `warnEveryMs`) and `storeErrors` counts every
 * failed call. The store reconnects on its own; the next hit that succeeds ends the outage.
 */
import { MemoryRateLimitStore } from './rate-limit.memory';
import type { RateLimitResult, RateLimitStore, WindowUsage } from './rate-limit.port';

export type RateLimitFailureMode = 'open' | 'closed';

export class RateLimitStoreUnavailableError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    cause: unknown,
  ) {
    super('the rate-limit store is unavailable', { cause });
    this.name = 'RateLimitStoreUnavailableError';
  }
}

export interface FaultTolerantOptions {
  mode: RateLimitFailureMode;
  logger: { warn(message: string, meta?: Record<string, unknown>): unknown; info(message: string, meta?: Record<string, unknown>): unknown };
  warnEveryMs?: number;
  /** What a fail-closed answer tells the client to wait. */
  retryAfterSeconds?: number;
}

export class FaultTolerantRateLimitStore implements RateLimitStore {
  /** Calls the shared store failed (a metric reads it). */
  storeErrors = 0;
  private readonly fallback = new MemoryRateLimitStore();
  private lastWarnAt = 0;
  private failing = false;

  constructor(
    readonly primary: RateLimitStore,
    private readonly options: FaultTolerantOptions,
  ) {}

  /** Whether the last call to the shared store failed. */
  get degraded(): boolean {
    return this.failing;
  }

  async hit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
    try {
      const result = await this.primary.hit(key, limit, windowMs, now);
      if (this.failing) {
        this.failing = false;
        this.options.logger.info('rate-limit store is back');
      }
      return result;
    } catch (err) {
      this.storeErrors++;
      this.failing = true;
      if (now - this.lastWarnAt >= (this.options.warnEveryMs ?? 10_000)) {
        this.lastWarnAt = now;
        this.options.logger.warn(
          this.options.mode === 'open' ? 'rate-limit store unavailable; limiting in this process only (fail-open)' : 'rate-limit store unavailable; refusing requests (fail-closed)',
          { error: err, errors_so_far: this.storeErrors },
        );
      }
      if (this.options.mode === 'closed') throw new RateLimitStoreUnavailableError(this.options.retryAfterSeconds ?? 5, err);
      return this.fallback.hit(key, limit, windowMs, now);
    }
  }

  /**
   * Usage comes from the shared store only: what this process counted alone during an outage is a
   * share, not the token's usage, so a read the store cannot answer fails (the caller answers 503).
   */
  async usage(keys: readonly string[], windowMs: number, now = Date.now()): Promise<WindowUsage[]> {
    try {
      return await this.primary.usage(keys, windowMs, now);
    } catch (err) {
      this.storeErrors++;
      throw new RateLimitStoreUnavailableError(this.options.retryAfterSeconds ?? 5, err);
    }
  }

  healthy(): Promise<boolean> {
    return this.primary.healthy();
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.primary.close();
  }
}
