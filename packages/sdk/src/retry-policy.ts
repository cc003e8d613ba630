/**
 * When to try again and how long to wait: 429 and 503 are retried, honouring Retry-After, a bounded
 * number of times; connection failures too. Waits without Retry-After grow exponentially with full
 * jitter, so many clients dropped at once do not come back in step.
 */
export interface RetryOptions {
  /** false turns automatic retries off (every 429/503 is thrown at once). Default true. */
  enabled?: boolean;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff step when the server gave no Retry-After, ms. Default 500. */
  baseDelayMs?: number;
  /** Longest single wait, ms; a Retry-After longer than this is thrown instead of waited. Default 60 000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { enabled: true, maxRetries: 3, baseDelayMs: 500, maxDelayMs: 60_000 };

export const RETRIED_STATUSES = new Set([429, 503]);

/** Exponential backoff with full jitter: a random wait in [0, min(max, base·2^attempt)]. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/** The wait before retry number `attempt` (0-based), or null when it must not be retried. */
export function retryDelayMs(options: Required<RetryOptions>, attempt: number, retryAfterSeconds: number | null): number | null {
  if (!options.enabled || attempt >= options.maxRetries) return null;
  if (retryAfterSeconds !== null) {
    const ms = retryAfterSeconds * 1000;
    return ms > options.maxDelayMs ? null : ms;
  }
  return backoffMs(attempt, options.baseDelayMs, options.maxDelayMs);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
