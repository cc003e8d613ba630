/**
 * Reading Oura's answers defensively: JSON parsing, field guards and time helpers. Oura's answers
 * are only trusted after these checks, so a wrong-shaped answer becomes ProviderError('bad_response')
 * and never a TypeError deep inside a mapping.
 */
import { ProviderError } from '../provider.port';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function badResponse(message: string, status?: number): ProviderError {
  return new ProviderError('bad_response', `Oura: ${message}`, status === undefined ? {} : { status });
}

/** The body as JSON, or bad_response (Oura answered something that is not JSON, e.g. an HTML error page). */
export function parseJson(body: string, what: string, status?: number): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw badResponse(`${what} is not JSON`, status);
  }
}

export function requireObject(v: unknown, what: string): Json {
  if (!isObject(v)) throw badResponse(`${what} is not an object`);
  return v;
}

export function requireString(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0) throw badResponse(`${what}.${key} is missing or not a string`);
  return v;
}

/** A number that is present and finite; null/absent (Oura's "no data") gives undefined; anything else is bad_response. */
export function optionalNumber(o: Json, key: string, what: string): number | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badResponse(`${what}.${key} is not a number`);
  return v;
}

export function optionalString(o: Json, key: string, what: string): string | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') throw badResponse(`${what}.${key} is not a string`);
  return v;
}

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

/** `YYYY-MM-DDThh:mm:ssZ`, the record time format (seconds floored: Oura's fractions are not kept). */
export const utcTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + 'Z';

export const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export function requireDay(o: Json, key: string, what: string): string {
  const v = requireString(o, key, what);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw badResponse(`${what}.${key} is not a day`);
  return v;
}

/** A day's local midnight as an instant, given the offset Oura reported for that day. */
export const localMidnight = (day: string, offset: number): number => Date.parse(`${day}T00:00:00Z`) - offset * 1000;
