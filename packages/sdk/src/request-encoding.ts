/**
 * Values a caller may pass that JSON and query strings do not carry as such: a `Date` wherever a
 * time or a date goes. A time is written `YYYY-MM-DDThh:mm:ssZ` (the interface's format, to the
 * second: the fraction is dropped), a field named like a date (`start_date`, `date`) `YYYY-MM-DD`
 * (the UTC day).
 */

/** The keys whose values are times or dates in the API's bodies and queries. */
type TimeKey = `${string}_time` | `${string}_at` | `${string}_date` | 'time' | 'date';

/** `T` with a Date also allowed wherever a time or a date string goes. */
export type WithDates<T> = T extends readonly (infer U)[]
  ? WithDates<U>[]
  : T extends object
    ? { [P in keyof T]: P extends TimeKey ? (string extends Exclude<T[P], undefined | null> ? T[P] | Date : WithDates<T[P]>) : WithDates<T[P]> }
    : T;

const isDateKey = (key: string) => key === 'date' || key.endsWith('_date');

export function formatDate(key: string, value: Date): string {
  const iso = value.toISOString();
  return isDateKey(key) ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/** JSON text of a body, with every Date in the format its key calls for. */
export function encodeBody(body: unknown): string {
  return JSON.stringify(body, function (this: Record<string, unknown>, key, value: unknown) {
    const original = this[key];
    return original instanceof Date ? formatDate(key, original) : value;
  });
}

/** A query parameter's text: lists comma-separated, Dates formatted. */
export function encodeQueryValue(key: string, value: unknown): string {
  if (value instanceof Date) return formatDate(key, value);
  if (Array.isArray(value)) return value.map((v) => encodeQueryValue(key, v)).join(',');
  return String(value);
}
