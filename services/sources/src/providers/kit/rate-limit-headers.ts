/**
 * How long a provider told us to stop, read from the rate-limit headers the six providers document,
 * on a 429 and on any other answer whose headers say a window is spent (so the next request is not
 * sent only to be refused: Polar and Strava count refused requests against the long window).
 * - `Retry-After` (RFC 9110: seconds or an HTTP date): Oura, Withings, Dexcom; honoured first by all.
 * - Polar: `RateLimit-Usage`, `RateLimit-Limit`, `RateLimit-Reset`, each "short term, long term",
 *   the reset in seconds.
 * - WHOOP: `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window resets).
 * - Strava: `X-RateLimit-Usage`/`-Limit` and `X-ReadRateLimit-Usage`/`-Limit` ("15-minute, daily");
 *   no reset header: the 15-minute window resets at :00/:15/:30/:45, the daily one at midnight UTC.
 */
const DAY_MS = 24 * 3600 * 1000;
const QUARTER_MS = 15 * 60_000;

const pair = (raw: string | undefined): [number, number] | undefined => {
  const m = raw === undefined ? null : /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(raw);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
};
const seconds = (raw: string | undefined): number | undefined => (raw !== undefined && /^\s*\d+\s*$/.test(raw) ? Number(raw) * 1000 : undefined);

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const s = seconds(value);
  if (s !== undefined) return s;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Polar's pairs: the reset of the spent window (the long one when both are). */
function polarSpent(h: Record<string, string>, any: boolean): number | undefined {
  const reset = pair(h['ratelimit-reset']);
  const usage = pair(h['ratelimit-usage']);
  const limit = pair(h['ratelimit-limit']);
  if (!reset) return undefined;
  if (usage && limit && usage[1] >= limit[1]) return reset[1] * 1000;
  if (usage && limit && usage[0] >= limit[0]) return reset[0] * 1000;
  return any ? reset[0] * 1000 : undefined;
}

/** Strava's pairs: until the next quarter hour, or midnight UTC when the daily limit is spent. */
function stravaSpent(h: Record<string, string>, now: number, any: boolean): number | undefined {
  const spent = (u?: [number, number], l?: [number, number]) => (u && l ? (u[1] >= l[1] ? 'day' : u[0] >= l[0] ? 'quarter' : undefined) : undefined);
  const overall = spent(pair(h['x-ratelimit-usage']), pair(h['x-ratelimit-limit']));
  const read = spent(pair(h['x-readratelimit-usage']), pair(h['x-readratelimit-limit']));
  const which = overall === 'day' || read === 'day' ? 'day' : overall ?? read ?? (any && h['x-ratelimit-usage'] ? 'quarter' : undefined);
  if (!which) return undefined;
  const size = which === 'day' ? DAY_MS : QUARTER_MS;
  return Math.floor(now / size) * size + size - now;
}

/**
 * The wait the headers of `status`'s answer ask for, in ms, or undefined for none: a 429 always
 * waits (`fallbackMs` when no header says how long); another answer only when a window is spent.
 */
export function rateLimitWaitMs(status: number, headers: Record<string, string>, now: number, fallbackMs: number): number | undefined {
  const limited = status === 429;
  const after = limited ? retryAfterMs(headers['retry-after'], now) : undefined;
  if (after !== undefined) return after;
  const polar = polarSpent(headers, limited);
  if (polar !== undefined) return polar;
  const strava = stravaSpent(headers, now, limited);
  if (strava !== undefined) return strava;
  const whoopReset = seconds(headers['x-ratelimit-reset']);
  if (whoopReset !== undefined && (limited || headers['x-ratelimit-remaining']?.trim() === '0')) return whoopReset;
  return limited ? fallbackMs : undefined;
}
