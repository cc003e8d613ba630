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

export interface RateLimitStore {
  /** Counts one hit against `key` in the current window and says whether it is within `limit`. */
  hit(key: string, limit: number, windowMs: number, now?: number): Promise<RateLimitResult>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export const windowStart = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs;
