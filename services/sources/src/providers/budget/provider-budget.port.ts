/**
 * The provider budget port: how many requests our application has sent a provider in each of its
 * documented windows, and whether the provider told us to stop (a 429, or rate-limit headers saying
 * a window is spent). Kept per application across every replica (Redis in distributed mode, this
 * process in embedded mode), so N replicas share the provider's one limit instead of each keeping
 * its own.
 */

/** One documented window of a provider's limit: `limit` requests per `windowMs`. */
export interface BudgetWindow {
  limit: number;
  windowMs: number;
}

/** One user's (connection's) own windows, counted with the application's in one take. */
export interface UserBudget {
  /** The connection (or provider user) the windows are kept for; unique within the application's key. */
  id: string;
  windows: readonly BudgetWindow[];
}

export interface BudgetTake {
  allowed: boolean;
  /** When refused: how long until the pause ends or the refusing window starts again (ms). */
  retryAfterMs: number;
}

export interface ProviderBudgetStore {
  /**
   * Counts one request under `key` in every window, all or nothing: allowed when no pause holds
   * `key` and each window's count is below its ceiling (`max(1, floor(limit × share))`). Windows
   * are fixed and aligned to the epoch (a day is a UTC day, 15 minutes start at :00, :15, …).
   * With `user`, that user's windows under `key` are checked and counted too, with the same
   * share, all or nothing with the application's: a refusal by either counts in neither.
   */
  take(key: string, windows: readonly BudgetWindow[], share: number, now: number, user?: UserBudget): Promise<BudgetTake>;
  /** Nothing more under `key` before `untilMs`; a later pause already held wins. */
  pause(key: string, untilMs: number, now: number): Promise<void>;
  /** When the pause on `key` ends (0 or a past time when there is none). */
  pausedUntil(key: string): Promise<number>;
  close(): Promise<void>;
}

export const windowStart = (now: number, windowMs: number): number => Math.floor(now / windowMs) * windowMs;
export const ceilingOf = (limit: number, share: number): number => Math.max(1, Math.floor(limit * share));
