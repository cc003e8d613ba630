/**
 * WHOOP's documented request limits (its definition, libs/providers/src/whoop.ts, states them and
 * cites the page) and what our polling spends against them (README.md, "Rate limits", has the
 * arithmetic). Every answer carries `X-RateLimit-Limit` ("100, 100;window=60, 10000;window=86400"),
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window the client is closest to
 * exhausting resets: up to a day once the daily limit is near); over either limit WHOOP answers 429.
 */
import { providerDefinition } from '@wellstream/providers';
import { DAY_MS } from './whoop-json';

const windows = providerDefinition('whoop').limits.windows;
const limitOver = (windowMs: number): number => {
  const w = windows.find((x) => x.windowMs === windowMs);
  if (!w) throw new Error(`WHOOP's definition has no ${windowMs} ms window`);
  return w.limit;
};

export const WHOOP_RATE_LIMITS = {
  /** Per application (OAuth client), all users together. */
  perMinute: limitOver(60_000),
  /** Per application, over WHOOP's 86,400-second window. */
  perDay: limitOver(DAY_MS),
} as const;

/**
 * How often a poll reads a resource WHOOP notifies (sleep, workout, recovery: WHOOP's webhook page
 * says webhooks replace "constantly" polling, and it retries a failed delivery for about an hour),
 * and body measurements (height and weight, one record a day): once a day, a fallback for a
 * notification lost for good. Cycles have no webhooks and today's grows all day: every poll.
 */
export const WHOOP_FALLBACK_POLL_MS = DAY_MS;
