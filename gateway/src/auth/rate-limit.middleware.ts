/**
 * The per-token hourly limit: one atomic store call per request, the X-RateLimit-* headers on
 * every answer, 429 with Retry-After past the limit.
 */
import type { RequestHandler } from 'express';
import { AppError, rateLimited } from '@wellstream/errors';
import { RateLimitStore, RateLimitStoreUnavailableError } from '@wellstream/ratelimit';
import type { DeveloperIdentity } from '../accounts/authenticate.usecase';

export const HOUR_MS = 3600_000;

export function rateLimit(store: RateLimitStore, identityOf: (res: Parameters<RequestHandler>[1]) => DeveloperIdentity): RequestHandler {
  return (req, res, next) => {
    const id = identityOf(res);
    store
      .hit(`rl:${id.tokenHash}`, id.rateLimitPerHour, HOUR_MS)
      .then((r) => {
        const resetSeconds = Math.ceil(r.resetAt / 1000);
        res.setHeader('X-RateLimit-Limit', String(r.limit));
        res.setHeader('X-RateLimit-Remaining', String(r.remaining));
        res.setHeader('X-RateLimit-Reset', String(resetSeconds));
        if (!r.allowed) {
          const retryAfter = Math.max(1, resetSeconds - Math.floor(Date.now() / 1000));
          next(rateLimited(`Rate limit of ${r.limit} requests per hour exceeded; retry after ${retryAfter} s.`, retryAfter));
          return;
        }
        next();
      })
      .catch((err) => {
        // Fail-closed during a store outage: an honest 503 the client may retry, never a 500.
        if (err instanceof RateLimitStoreUnavailableError) {
          next(new AppError('unavailable', 'RATE_LIMIT_UNAVAILABLE', 'Rate limiting is temporarily unavailable; retry shortly.', { retryAfterSeconds: err.retryAfterSeconds }));
          return;
        }
        next(err);
      });
  };
}
