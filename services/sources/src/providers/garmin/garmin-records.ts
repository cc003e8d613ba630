/** Pieces every Garmin mapping shares: the source, value metrics, Garmin's Unix-second times. */
import { utcTime } from '../kit/utc-time';
import type { ValueMetric } from '../provider.port';
import { badResponse, Json, optionalNumber } from './garmin-json';

export const SOURCE = { type: 'garmin' } as const;
export { utcTime };

/** One value metric, or none when Garmin gave no value (absent is never 0). */
export function metric(type: string, unit: string, value: number | undefined, origin: 'device' | 'manual' = 'device'): ValueMetric[] {
  return value === undefined || value < 0 ? [] : [{ type, unit, value, origin }];
}

/** "All timestamps are Unix seconds UTC"; a time before 2000 or far in the future is not one. */
export function requireSeconds(o: Json, key: string, what: string): number {
  const v = optionalNumber(o, key, what);
  if (v === undefined || !Number.isInteger(v) || v < 946_684_800 || v > 4_102_444_800) throw badResponse(`${what}.${key} is not a Unix time`);
  return v;
}

/** `…OffsetInSeconds`: the device's offset from UTC at that time (within ±14 h), 0 when absent. */
export function offsetOf(o: Json, key: string, what: string): number {
  const v = optionalNumber(o, key, what) ?? 0;
  if (!Number.isInteger(v) || Math.abs(v) > 14 * 3600) throw badResponse(`${what}.${key} is not an offset`);
  return v;
}

/** A duration in seconds, ≥ 0 and at most `maxS`. */
export function durationOf(o: Json, key: string, what: string, maxS: number): number {
  const v = optionalNumber(o, key, what);
  if (v === undefined || v < 0 || v > maxS) throw badResponse(`${what}.${key} is not a duration`);
  return v;
}

/** `calendarDate`, "yyyy-mm-dd". */
export function requireDate(o: Json, what: string): string {
  const v = o.calendarDate;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw badResponse(`${what}.calendarDate is not a date`);
  return v;
}

/**
 * A `timeOffset…` map (`{"15": 75, "30": 75, …}`: seconds after the summary's start → value) as
 * per-minute samples: the mean of each minute's values, at most 1,440 (a day), in time order.
 */
export function perMinute(map: Json | undefined, startS: number, what: string, valid: (v: number) => boolean): { time: string; value: number }[] {
  if (!map) return [];
  const minutes = new Map<number, { sum: number; n: number }>();
  for (const [k, v] of Object.entries(map)) {
    if (!/^\d{1,6}$/.test(k)) throw badResponse(`${what} has an unreadable offset`);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw badResponse(`${what} has a value that is not a number`);
    if (!valid(v)) continue;
    const minute = Math.floor((startS + Number(k)) / 60);
    const m = minutes.get(minute) ?? { sum: 0, n: 0 };
    m.sum += v;
    m.n++;
    minutes.set(minute, m);
  }
  if (minutes.size > 1440) throw badResponse(`${what} spans more than a day`);
  return [...minutes.entries()].sort((a, b) => a[0] - b[0]).map(([minute, m]) => ({ time: utcTime(minute * 60_000), value: Math.round((m.sum / m.n) * 10) / 10 }));
}
