/**
 * Reading Strava's answers defensively. Strava's ids are 64-bit integers ("long integer" in the
 * webhook guide; the documented token answer shows athlete id 1234567890987654321 and the
 * Get Activity example activity id 12345678987654321), which JSON.parse would round. Answers are
 * therefore read with a small lossless parser that keeps integers beyond Number.MAX_SAFE_INTEGER as
 * BigInt, and ids are handed on as decimal strings. Any other shape problem becomes
 * ProviderError('bad_response') here, never a TypeError in a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';
export { DAY_MS, utcTime } from '../kit/utc-time';

/**
 * The shared guards, naming Strava. parseJson and optionalNumber are Strava's own below: the
 * lossless parser may hand a BigInt where the shared ones only know JSON.parse's numbers.
 */
export const { badResponse, requireObject, requireString, optionalString } = jsonReader('Strava');

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const MAX_DEPTH = 64;

/**
 * JSON.parse, except that an integer literal outside the safe range becomes a BigInt (so an id
 * keeps every digit). Throws SyntaxError on anything that is not exactly one JSON value.
 */
export function parseLossless(text: string): unknown {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxError(`Unexpected JSON at position ${i}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') return JSON.parse(text.slice(start, ++i)) as string;
      else i++;
    }
    return fail();
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Json = {};
      ws();
      if (text[i] === '}') return i++, o;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = str();
        ws();
        if (text[i++] !== ':') fail();
        const v = value(depth + 1);
        Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, o;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') return i++, a;
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, a;
        else fail();
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail();
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail();
  return v;
}

/** The body as JSON, or bad_response (Strava answered something that is not JSON, e.g. an HTML error page). */
export function parseJson(body: string, what: string, status?: number): unknown {
  try {
    return parseLossless(body);
  } catch {
    throw badResponse(`${what} is not JSON`, status);
  }
}

/** A Strava id (integer, possibly beyond 2^53) as its decimal string. */
export function idOf(v: unknown): string | undefined {
  if (typeof v === 'bigint' && v >= 0n) return v.toString();
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return v.replace(/^0+(?=\d)/, '');
  return undefined;
}

export function requireId(o: Json, key: string, what: string): string {
  const id = idOf(o[key]);
  if (id === undefined) throw badResponse(`${what}.${key} is missing or not an id`);
  return id;
}

/** A finite number, or undefined when absent/null ("no data"); anything else is bad_response. */
export function optionalNumber(o: Json, key: string, what: string): number | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badResponse(`${what}.${key} is not a number`);
  return v;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Milliseconds of an ISO 8601 date-time that names its offset (Strava's `start_date` is UTC, `…Z`). */
export function instant(iso: string, what: string): number {
  const ms = DATE_TIME.test(iso) ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) throw badResponse(`${what} is not a date-time with an offset: ${iso.slice(0, 40)}`);
  return ms;
}

