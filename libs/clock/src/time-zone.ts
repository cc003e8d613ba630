/**
 * Time-zone arithmetic without a tz library: the platform's Intl (full ICU in Node 20) knows the
 * Olson rules, DST included. Used for utc_offset when a source gives none, for the local day of a
 * record, and by the demo source to place events at local times (records and the sources service).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Offset from UTC in seconds of `timeZone` at the instant `at` (e.g. Europe/Berlin in July → 7200). */
export function zoneOffsetSeconds(timeZone: string, at: Date): number {
  // Records of one zone cluster in time: remember a quarter hour's offset when it is the same at
  // both ends (no transition inside), else compute the instant exactly.
  const bucket = Math.floor(at.getTime() / QUARTER_HOUR_MS);
  const key = `${timeZone}\u0000${bucket}`;
  let offset = quarterHours.get(key);
  if (offset === undefined) {
    const first = exactOffset(timeZone, new Date(bucket * QUARTER_HOUR_MS));
    offset = first === exactOffset(timeZone, new Date((bucket + 1) * QUARTER_HOUR_MS - 1000)) ? first : null;
    if (quarterHours.size >= 10_000) quarterHours.clear();
    quarterHours.set(key, offset);
  }
  return offset ?? exactOffset(timeZone, at);
}

const QUARTER_HOUR_MS = 15 * 60_000;
/** Zone and quarter hour → its offset, or null when it holds a transition. */
const quarterHours = new Map<string, number | null>();

function exactOffset(timeZone: string, at: Date): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(at)) parts[p.type] = p.value;
  const wallAsUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const whole = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wallAsUtc - whole) / 1000);
}

/** The UTC instant of a local wall-clock time in `timeZone` (for a skipped DST hour: the later reading). */
export function localToUtc(timeZone: string, date: string, secondsOfDay: number): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + secondsOfDay * 1000;
  const first = zoneOffsetSeconds(timeZone, new Date(wall));
  const guess = wall - first * 1000;
  const second = zoneOffsetSeconds(timeZone, new Date(guess));
  return new Date(second === first ? guess : wall - second * 1000);
}

/** YYYY-MM-DD of an instant shifted by an offset in seconds. */
export function localDateOf(utc: Date, offsetSeconds: number): string {
  return new Date(utc.getTime() + offsetSeconds * 1000).toISOString().slice(0, 10);
}

/** `YYYY-MM-DDThh:mm:ssZ`, the record time format. */
export const toRecordTime = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
