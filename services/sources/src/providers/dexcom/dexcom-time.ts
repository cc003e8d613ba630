/**
 * Dexcom's times and ours. Requests take `startDate`/`endDate` as `YYYY-MM-DDThh:mm:ss` with no
 * zone, read against systemTime (UTC). Answers carry systemTime (UTC per the device's clock) and
 * displayTime (what the user's screen showed); per the v3 endpoint pages, records from the mobile
 * apps (displayDevice iOS/android) carry UTC offsets on both, receiver records carry none.
 */

/** Dexcom refuses a window longer than this (v3: 30 days between startDate and endDate). */
export const MAX_WINDOW_MS = 30 * 24 * 3600 * 1000;
export const HOUR_MS = 3600 * 1000;
const QUARTER_HOUR_S = 15 * 60;
/** Real zones span UTC-12 … UTC+14; ingestion accepts ±14 h. */
const MAX_OFFSET_S = 14 * 3600;

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** `YYYY-MM-DDThh:mm:ss`, UTC, no zone, no milliseconds: the request format of the v3 pages. */
export const dexcomDate = (d: Date): string => d.toISOString().slice(0, 19);

/** `YYYY-MM-DDThh:mm:ssZ` (ingestion's format: whole seconds). */
export { utcTime } from '../kit/utc-time';

export interface DexcomTime {
  /** The wall-clock reading as if it were UTC (naive times), or the true UTC instant (zoned times). */
  ms: number;
  /** Seconds east of UTC when the string carried a zone (`Z` = 0), else undefined. */
  offsetS?: number;
}

/** Reads a Dexcom time; undefined when it is not one (never throws). */
export function parseDexcomTime(value: unknown): DexcomTime | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, , zone] = m;
  const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  // Date.UTC rolls 2024-02-30 over into March: a time that does not round-trip is not a time.
  if (Number.isNaN(wall) || new Date(wall).toISOString().slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) return undefined;
  if (zone === undefined) return { ms: wall };
  if (zone === 'Z') return { ms: wall, offsetS: 0 };
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetS = sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60);
  return { ms: wall - offsetS * 1000, offsetS };
}

/** The UTC instant of a systemTime: naive ones are UTC by definition. */
export function systemInstant(value: unknown): number | undefined {
  return parseDexcomTime(value)?.ms;
}

/**
 * The record's utc_offset, from Dexcom's own times, or undefined (the user's profile decides):
 * 1. displayTime carries a zone (mobile apps): that offset, as Dexcom states it.
 * 2. both naive (receivers): displayTime − systemTime, rounded to the nearest quarter hour (every
 *    real zone is a whole quarter hour; a receiver's hand-set clock drifts by minutes).
 * 3. a difference of exactly zero from a receiver is left out: a receiver that knows no local time
 *    shows UTC, which cannot be told from a user living at UTC+0.
 * An offset beyond ±14 h is a wrong clock, not a zone: left out.
 */
export function utcOffsetOf(systemTime: unknown, displayTime: unknown, displayDevice: unknown): number | undefined {
  const display = parseDexcomTime(displayTime);
  if (!display) return undefined;
  let offsetS: number;
  if (display.offsetS !== undefined) {
    offsetS = display.offsetS;
  } else {
    const system = systemInstant(systemTime);
    if (system === undefined) return undefined;
    offsetS = Math.round((display.ms - system) / 1000 / QUARTER_HOUR_S) * QUARTER_HOUR_S;
    if (offsetS === 0 && displayDevice === 'receiver') return undefined;
  }
  if (Math.abs(offsetS) > MAX_OFFSET_S) return undefined;
  return offsetS === 0 ? 0 : offsetS; // no -0
}

export const floorHour = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const ceilHour = (ms: number): number => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/**
 * One Dexcom request's range inside a fetch window: [from, to) with to − from ≤ 30 days, and the
 * cursor to continue with when the window needs more than one request. `cursor` is the ISO start
 * of the next request, as this function handed it out.
 */
export function requestRange(from: number, to: number, cursor: string | undefined): { from: number; to: number; next?: string } | undefined {
  let start = from;
  if (cursor !== undefined) {
    const c = Date.parse(cursor);
    if (Number.isNaN(c) || c < from || c >= to) return undefined;
    start = c;
  }
  const end = Math.min(to, start + MAX_WINDOW_MS);
  return end < to ? { from: start, to: end, next: new Date(end).toISOString() } : { from: start, to: end };
}
