/**
 * Reading Polar's answers defensively: JSON parsing and field guards. An answer is trusted only
 * after these checks, so a wrong-shaped answer becomes ProviderError('bad_response'), never a
 * TypeError deep inside a mapping.
 */
import { ProviderError } from '../provider.port';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function badResponse(message: string, status?: number): ProviderError {
  return new ProviderError('bad_response', `Polar: ${message}`, status === undefined ? {} : { status });
}

/** The body as JSON, or bad_response (an HTML error page, a truncated answer, XML…). */
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

export function requireArray(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw badResponse(`${what} is not an array`);
  return v;
}

export function requireString(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0) throw badResponse(`${what}.${key} is missing or not a string`);
  return v;
}

/** Polar ids are strings (exercise hash ids) or integers (user, physical info): both become text. */
export function requireId(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && v.length > 0 && v.length <= 150) return v;
  throw badResponse(`${what}.${key} is missing or not an id`);
}

/** A present, finite number; null/absent gives undefined; anything else is bad_response. */
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

export function optionalObject(o: Json, key: string, what: string): Json | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  return requireObject(v, `${what}.${key}`);
}
