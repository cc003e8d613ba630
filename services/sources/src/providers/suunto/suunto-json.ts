/**
 * Reading Suunto's answers defensively: the shared guards (kit/json-reading) plus Suunto's own
 * shapes: the Workout API's `{error, metadata, payload}` envelope, epoch-millisecond times, and the
 * 24/7 APIs' ISO-8601 times with an offset. A wrong-shaped answer becomes bad_response, never a
 * TypeError inside a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';
export { DAY_MS, startOfUtcDay, utcDay, utcTime } from '../kit/utc-time';

export const { badResponse, parseJson, requireObject, requireArray, requireString, optionalNumber, optionalString, optionalObject } = jsonReader('Suunto');

/**
 * The Workout API's envelope: `payload` holds the answer; an `error` object with a code means the
 * call failed even with a 2xx status (bad_response: nothing to retry).
 */
export function readPayload(body: string, what: string, status?: number): unknown {
  const root = requireObject(parseJson(body, what, status), what);
  const error = root.error;
  if (error !== null && error !== undefined) {
    const e = requireObject(error, `${what}.error`);
    if (e.code !== null && e.code !== undefined) throw badResponse(`${what}: error ${String(e.code)} ${typeof e.description === 'string' ? e.description.slice(0, 200) : ''}`.trim(), status);
  }
  if (!('payload' in root)) throw badResponse(`${what}.payload is missing`, status);
  return root.payload;
}

/** An epoch-millisecond time (`startTime: 1702729200000`), or bad_response. */
export function epochMs(o: Json, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 8.64e15) throw badResponse(`${what}.${key} is not a time`);
  return v;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An ISO-8601 date-time. The 24/7 answers carry an offset (`2026-09-13T08:00:00.000+02:00`); the
 * daily statistics' `TimeISO8601` has none and is UTC ("stored into and fetched from the API using
 * UTC time"). Returns the instant and the offset in seconds when one is written.
 */
export function isoTime(v: unknown, what: string): { ms: number; offset?: number } {
  if (typeof v !== 'string' || !ISO.test(v)) throw badResponse(`${what} is not a date-time`);
  const zone = /(Z|[+-]\d{2}:?\d{2})$/.exec(v);
  const ms = Date.parse(zone ? v : `${v}Z`);
  if (Number.isNaN(ms)) throw badResponse(`${what} is not a date-time`);
  if (!zone || zone[1] === 'Z') return zone ? { ms, offset: 0 } : { ms };
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone[1])!;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60;
  if (seconds > 14 * 3600) throw badResponse(`${what} has an offset out of range`);
  return { ms, offset: m[1] === '-' ? -seconds : seconds };
}

/** A Suunto id: the workout key (a 24-hex string) or a number, as text. */
export function requireId(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(v)) return v;
  throw badResponse(`${what}.${key} is not an id`);
}
