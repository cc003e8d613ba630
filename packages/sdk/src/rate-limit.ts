/**
 * The rate-limit headers every REST answer carries, and what each SDK result exposes about the
 * answer it came from (as the non-enumerable `$response`, so results still serialize as the body).
 */
export interface RateLimit {
  /** Requests per hour allowed for the token. */
  limit: number;
  remaining: number;
  /** When the hour ends. */
  reset: Date;
}

export interface ResponseMeta {
  status: number;
  headers: Headers;
  requestId: string | null;
  /** Null on answers that carry no rate-limit headers (marketplace pages, event streams). */
  rateLimit: RateLimit | null;
}

export type WithResponse<T> = T extends object ? T & { readonly $response: ResponseMeta } : T;

export function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = headers.get('x-ratelimit-limit');
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  if (limit === null || remaining === null || reset === null) return null;
  return { limit: Number(limit), remaining: Number(remaining), reset: new Date(Number(reset) * 1000) };
}

/** Retry-After in seconds (delta-seconds or an HTTP date), null when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const v = headers.get('retry-after');
  if (v === null || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function attachResponse<T>(value: T, meta: ResponseMeta): WithResponse<T> {
  if (value !== null && typeof value === 'object') Object.defineProperty(value, '$response', { value: meta, enumerable: false });
  return value as WithResponse<T>;
}
