/**
 * The per-token hourly limit: one atomic store call per request, the X-RateLimit-* headers on
 * every answer, 429 with Retry-After past the limit.
 */
import type { ServerResponse } from 'node:http';
import { AppError, rateLimited } from '@wellstream/errors';
import { RateLimitStore, RateLimitStoreUnavailableError } from '@wellstream/ratelimit';
import type { DeveloperIdentity } from '../accounts/authenticate.usecase';

export const HOUR_MS = 3600_000;

/** The limiter's key for a token (by its hash); the operator's usage read asks for the same. */
export const rateLimitKey = (tokenHash: string) => `rl:${tokenHash}`;

/** Counts one request of `identity`'s token and sets the headers on `res`; rejects past the limit. */
export type RateLimiter = (identity: DeveloperIdentity, res: ServerResponse) => Promise<void>;

export function rateLimiter(store: RateLimitStore): RateLimiter {
  return async (identity, res) => {
    const r = await store.hit(rateLimitKey(identity.tokenHash), identity.rateLimitPerHour, HOUR_MS).catch((err: unknown) => {
      // Fail-closed during a store outage: an honest 503 the client may retry, never a 500.
      throw asUnavailable(err, 'Rate limiting is temporarily unavailable; retry shortly.');
    });
    const resetSeconds = Math.ceil(r.resetAt / 1000);
    res.setHeader('X-RateLimit-Limit', String(r.limit));
    res.setHeader('X-RateLimit-Remaining', String(r.remaining));
    res.setHeader('X-RateLimit-Reset', String(resetSeconds));
    if (!r.allowed) {
      const retryAfter = Math.max(1, resetSeconds - Math.floor(Date.now() / 1000));
      throw rateLimited(`Rate limit of ${r.limit} requests per hour exceeded; retry after ${retryAfter} s.`, retryAfter);
    }
  };
}

/** A store outage as an honest 503 with Retry-After; anything else unchanged. */
export function asUnavailable(err: unknown, message: string): unknown {
  if (err instanceof RateLimitStoreUnavailableError) return new AppError('unavailable', 'RATE_LIMIT_UNAVAILABLE', message, { retryAfterSeconds: err.retryAfterSeconds });
  return err;
}
