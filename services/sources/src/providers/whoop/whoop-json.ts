/**
 * Reading WHOOP's answers defensively: the shared guards (kit/json-reading) plus what is WHOOP's own:
 * int64-or-UUID ids, date-times, time zone designators and the `{records, next_token}` envelope. An answer is
 * trusted only after these checks, so a wrong-shaped answer becomes ProviderError('bad_response')
 * and never a TypeError inside a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';
export { DAY_MS, utcTime } from '../kit/utc-time';

/** The shared guards, naming WHOOP in their bad_response messages. */
export const { badResponse, parseJson, requireObject, requireString, optionalNumber, optionalString, optionalObject } = jsonReader('WHOOP');

/** WHOOP ids are int64 (cycles, users) or UUID strings (sleeps, workouts): either, as text. */
export function requireId(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && /^[A-Za-z0-9-]{1,100}$/.test(v)) return v;
  throw badResponse(`${what}.${key} is not an id`);
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Milliseconds since the epoch of a WHOOP date-time (`2022-04-24T02:25:44.774Z`), or bad_response. */
export function instant(o: Json, key: string, what: string): number {
  const v = requireString(o, key, what);
  const ms = DATE_TIME.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw badResponse(`${what}.${key} is not a date-time`);
  return ms;
}

export function optionalInstant(o: Json, key: string, what: string): number | undefined {
  return o[key] === null || o[key] === undefined ? undefined : instant(o, key, what);
}

const TZD = /^(?:([+-])(\d{2}):?(\d{2})|Z)$/;

/**
 * WHOOP's `timezone_offset`, a W3C Time Zone Designator (`+hh:mm`, `-hh:mm` or `Z`), in seconds:
 * `-05:00` gives -18000. Anything else, or beyond the real ±14 h, is bad_response.
 */
export function offsetSeconds(o: Json, key: string, what: string): number {
  const v = requireString(o, key, what);
  const m = TZD.exec(v);
  if (!m) throw badResponse(`${what}.${key} is not a time zone designator`);
  if (v === 'Z') return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60;
  if (seconds > 14 * 3600 || Number(m[3]) >= 60) throw badResponse(`${what}.${key} is out of range`);
  return m[1] === '-' ? -seconds : seconds;
}

/** `{records: [...], next_token?}`: every WHOOP v2 collection envelope. */
export function readCollection(body: string, what: string, status?: number): { records: Json[]; nextToken?: string } {
  const root = requireObject(parseJson(body, what, status), what);
  const records = root.records;
  if (!Array.isArray(records)) throw badResponse(`${what}.records is not an array`);
  const items = records.map((item, i) => requireObject(item, `${what}.records[${i}]`));
  const next = root.next_token;
  if (next !== null && next !== undefined && typeof next !== 'string') throw badResponse(`${what}.next_token is not a string`);
  return { records: items, nextToken: typeof next === 'string' && next.length > 0 ? next : undefined };
}
