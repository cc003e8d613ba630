/**
 * The rate-limit store port: a fixed hourly window per key, counted atomically in one round trip.
 */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends, ms since epoch. */
  resetAt: number;
}

/** What a key has used: allowed hits in the window holding `now` and in the one before it. */
export interface WindowUsage {
  /** Start of the current window, ms since epoch. */
  windowStart: number;
  current: number;
  previous: number;
}

export interface RateLimitStore {
  /** Counts one hit against `key` in the current window and says whether it is within `limit`. */
  hit(key: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult>;
  /**
   * Reads, without counting, the usage of each key in the current and the previous window (the
   * operator's "how much does this token use"); one answer per key, in order, in one round trip.
   * A key never hit reads 0.
   */
  usage(keys: readonly string[], windowMs: number, now?: number): Promise<WindowUsage[]>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export const windowStart = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs;
