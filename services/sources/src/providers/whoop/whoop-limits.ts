/**
 * WHOOP's documented request limits and what our polling spends against them: the one place the
 * WHOOP adapter states them (README.md, "Rate limits", has the arithmetic).
 *
 * WHOOP "API Rate Limiting" (developer.whoop.com/docs/developing/rate-limiting): "All clients are
 * subject to two sets of rate limiting … 100 requests per minute. 10,000 requests per day", per
 * client (our application, all users together), raised on request. Every answer carries
 * `X-RateLimit-Limit` ("100, 100;window=60, 10000;window=86400"), `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (seconds until the window the client is closest to exhausting resets: up to
 * a day once the daily limit is near); over either limit WHOOP answers 429.
 */
import { DAY_MS } from './whoop-json';

export const WHOOP_RATE_LIMITS = {
  /** Per application (OAuth client), all users together. */
  perMinute: 100,
  /** Per application, over WHOOP's 86,400-second window. */
  perDay: 10_000,
} as const;

/**
 * How often a poll reads a resource WHOOP notifies (sleep, workout, recovery: WHOOP's webhook page
 * says webhooks replace "constantly" polling, and it retries a failed delivery for about an hour),
 * and body measurements (height and weight, one record a day): once a day, a fallback for a
 * notification lost for good. Cycles have no webhooks and today's grows all day: every poll.
 */
export const WHOOP_FALLBACK_POLL_MS = DAY_MS;
