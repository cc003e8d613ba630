/**
 * Defensive reading of a provider's JSON answers, shared by the adapters whose answers are plain
 * JSON (Oura, WHOOP, Polar, and Strava for everything but parsing). An answer is trusted only after
 * these checks, so a wrong-shaped answer becomes ProviderError('bad_response') naming the provider,
 * never a TypeError deep inside a mapping. What differs per provider (collection envelopes, id
 * shapes, date-time formats, Strava's lossless 64-bit parsing) stays in the provider's own folder.
 */
import { ProviderError } from '../provider.port';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The guards, each naming `provider` (as users and logs know it, e.g. `Oura`) in its message. */
export function jsonReader(provider: string) {
  function badResponse(message: string, status?: number): ProviderError {
    return new ProviderError('bad_response', `${provider}: ${message}`, status === undefined ? {} : { status });
  }

  /** The body as JSON, or bad_response (e.g. an HTML error page, a truncated answer). */
  function parseJson(body: string, what: string, status?: number): unknown {
    try {
      return JSON.parse(body);
    } catch {
      throw badResponse(`${what} is not JSON`, status);
    }
  }

  function requireObject(v: unknown, what: string): Json {
    if (!isObject(v)) throw badResponse(`${what} is not an object`);
    return v;
  }

  function requireArray(v: unknown, what: string): unknown[] {
    if (!Array.isArray(v)) throw badResponse(`${what} is not an array`);
    return v;
  }

  function requireString(o: Json, key: string, what: string): string {
    const v = o[key];
    if (typeof v !== 'string' || v.length === 0) throw badResponse(`${what}.${key} is missing or not a string`);
    return v;
  }

  /** A present, finite number; null/absent (the providers' "no data") gives undefined; anything else is bad_response. */
  function optionalNumber(o: Json, key: string, what: string): number | undefined {
    const v = o[key];
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw badResponse(`${what}.${key} is not a number`);
    return v;
  }

  function optionalString(o: Json, key: string, what: string): string | undefined {
    const v = o[key];
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'string') throw badResponse(`${what}.${key} is not a string`);
    return v;
  }

  function optionalObject(o: Json, key: string, what: string): Json | undefined {
    const v = o[key];
    if (v === null || v === undefined) return undefined;
    return requireObject(v, `${what}.${key}`);
  }

  return { badResponse, parseJson, requireObject, requireArray, requireString, optionalNumber, optionalString, optionalObject };
}
