/**
 * Reading Oura's answers defensively: the shared guards (kit/json-reading) plus what is Oura's own:
 * the `{data, next_token}` envelope, LocalizedDateTime offsets and days. Oura's answers
 * are only trusted after these checks, so a wrong-shaped answer becomes ProviderError('bad_response')
 * and never a TypeError deep inside a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';
export { DAY_MS, startOfUtcDay, utcDay, utcTime } from '../kit/utc-time';

/** The shared guards, naming Oura in their bad_response messages. */
export const { badResponse, parseJson, requireObject, requireString, optionalNumber, optionalString } = jsonReader('Oura');

/** `{ data: [...], next_token }`: Oura's MultiDocumentResponse / TimeSeriesResponse envelope. */
export function readCollection(body: string, what: string): { data: Json[]; nextToken?: string } {
  const root = requireObject(parseJson(body, what), what);
  const data = root.data;
  if (!Array.isArray(data)) throw badResponse(`${what}.data is not an array`);
  const items = data.map((item, i) => requireObject(item, `${what}.data[${i}]`));
  const next = root.next_token;
  if (next !== null && next !== undefined && typeof next !== 'string') throw badResponse(`${what}.next_token is not a string`);
  return { data: items, nextToken: typeof next === 'string' && next.length > 0 ? next : undefined };
}

const OFFSET = /(?:([+-])(\d{2}):?(\d{2})|Z)$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?/;

/**
 * The UTC offset in seconds that an Oura LocalizedDateTime carries (`2021-11-01T22:31:04-07:00` gives
 * -25200); undefined when the string has none, so the user's profile decides instead of us guessing.
 */
export function offsetSeconds(iso: string): number | undefined {
  const m = OFFSET.exec(iso);
  if (!m) return undefined;
  if (m[0] === 'Z') return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60;
  return m[1] === '-' ? -seconds : seconds;
}

/** Milliseconds since the epoch of a date-time Oura gave, or bad_response when it is not one. */
export function instant(iso: string, what: string): number {
  const ms = DATE_TIME.test(iso) ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) throw badResponse(`${what} is not a date-time: ${iso.slice(0, 40)}`);
  return ms;
}

export function requireDay(o: Json, key: string, what: string): string {
  const v = requireString(o, key, what);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw badResponse(`${what}.${key} is not a day`);
  return v;
}

/** A day's local midnight as an instant, given the offset Oura reported for that day. */
export const localMidnight = (day: string, offset: number): number => Date.parse(`${day}T00:00:00Z`) - offset * 1000;
