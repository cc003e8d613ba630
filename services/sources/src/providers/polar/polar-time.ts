/**
 * Polar's times. Three shapes appear in the AccessLink documents:
 * - date-times with an offset (`2020-01-01T00:39:07+03:00`, sleep) or `Z` (physical info `created`);
 * - local date-times without one plus a separate offset in minutes (exercise `start_time` +
 *   `start_time_utc_offset`);
 * - device-local clock times of a local date (continuous heart rate `sample_time`, `HH:MM` keys of
 *   the sleep hypnogram) with no offset at all.
 * The last kind is placed with the user's profile time zone when the service knows it, else read as
 * UTC (and the record carries no utc_offset, so the profile decides how it is shown).
 */
import { utcDay } from '../kit/utc-time';
import { badResponse } from './polar-json';

export { DAY_MS, startOfUtcDay, utcDay, utcTime } from '../kit/utc-time';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export function requireDay(v: string, what: string): string {
  if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)) || utcDay(Date.parse(`${v}T00:00:00Z`)) !== v) throw badResponse(`${what} is not a day: ${v.slice(0, 20)}`);
  return v;
}

/** A local date-time without offset read as if it were UTC (the clock reading, not an instant yet). */
export function clockMs(local: string, what: string): number {
  const m = LOCAL.exec(local);
  const ms = m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}Z`) : NaN;
  if (Number.isNaN(ms)) throw badResponse(`${what} is not a local date-time: ${local.slice(0, 40)}`);
  return ms;
}

/** An instant from a date-time that carries an offset or Z; its offset in seconds. */
export function instantWithOffset(iso: string, what: string): { ms: number; offsetS: number } {
  const m = WITH_OFFSET.exec(iso);
  const ms = m ? Date.parse(iso) : NaN;
  if (!m || Number.isNaN(ms)) throw badResponse(`${what} is not a date-time with an offset: ${iso.slice(0, 40)}`);
  const off = m[1];
  if (off === 'Z') return { ms, offsetS: 0 };
  const digits = off.replace(':', '');
  const s = Number(digits.slice(1, 3)) * 3600 + Number(digits.slice(3, 5)) * 60;
  return { ms, offsetS: off.startsWith('-') ? -s : s };
}

/** A date-time with an offset, or (as the activity schema says its times are UTC) one without, read as UTC. */
export function instantUtcUnlessOffset(iso: string, what: string): number {
  if (WITH_OFFSET.test(iso)) return instantWithOffset(iso, what).ms;
  return clockMs(iso, what);
}

/** ISO 8601 durations as Polar writes them (`PT2H44M`, `PT210.026S`, `P1DT2H`), in seconds. */
export function durationSeconds(v: string, what: string): number {
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(v);
  if (!m || v === 'P' || v === 'PT' || v.endsWith('T')) throw badResponse(`${what} is not an ISO 8601 duration: ${v.slice(0, 30)}`);
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? 0 : Number(x)));
  return d * 86_400 + h * 3600 + min * 60 + s;
}

/** The offset (seconds east of UTC) of `zone` at instant `ms`, from the runtime's time zone data. */
export function zoneOffsetS(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 1000);
}

export function isZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant a device-local clock reading stands for, in `zone` (two passes settle DST edges);
 * without a known zone the reading is taken as UTC.
 */
export function localToInstant(clock: number, zone: string | null | undefined): number {
  if (!isZone(zone)) return clock;
  let ms = clock - zoneOffsetS(zone, clock) * 1000;
  ms = clock - zoneOffsetS(zone, ms) * 1000;
  return ms;
}

/** The device-local calendar day of an instant in `zone` (UTC without one). */
export function localDayOf(ms: number, zone: string | null | undefined): string {
  return isZone(zone) ? utcDay(ms + zoneOffsetS(zone, ms) * 1000) : utcDay(ms);
}
