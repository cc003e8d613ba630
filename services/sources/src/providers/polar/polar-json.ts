/**
 * Reading Polar's answers defensively: the shared guards (kit/json-reading) plus Polar's ids. An answer is trusted only
 * after these checks, so a wrong-shaped answer becomes ProviderError('bad_response'), never a
 * TypeError deep inside a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';

/** The shared guards, naming Polar in their bad_response messages. */
export const { badResponse, parseJson, requireObject, requireArray, requireString, optionalNumber, optionalString, optionalObject } =
  jsonReader('Polar');

/** Polar ids are strings (exercise hash ids) or integers (user, physical info): both become text. */
export function requireId(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && v.length > 0 && v.length <= 150) return v;
  throw badResponse(`${what}.${key} is missing or not an id`);
}
