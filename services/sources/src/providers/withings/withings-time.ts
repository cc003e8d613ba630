/**
 * Time helpers for the Withings adapter: Withings speaks unix seconds, `YYYY-MM-DD` dates and Olson
 * time-zone names (`timezone` on getmeas, activities, workouts and sleep summaries); Wellstream
 * records want `YYYY-MM-DDThh:mm:ssZ` and a utc_offset in seconds. Only Intl is used, so an
 * unknown zone name gives `undefined` (the record then carries no utc_offset) instead of a throw.
 */

const DAY_S = 86_400;

/** `YYYY-MM-DDThh:mm:ssZ` (ingestion refuses milliseconds). */
export const isoSeconds = (epochS: number): string => new Date(epochS * 1000).toISOString().slice(0, 19) + 'Z';

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export const utcYmd = (epochS: number): string => new Date(epochS * 1000).toISOString().slice(0, 10);

export const floorUtcDay = (epochS: number): number => Math.floor(epochS / DAY_S) * DAY_S;
export const ceilUtcDay = (epochS: number): number => Math.ceil(epochS / DAY_S) * DAY_S;
export { DAY_S };

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(zone)) {
    try {
      const f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      formatters.set(zone, f);
    } catch {
      // RangeError for a zone name Intl does not know: remembered so we do not retry it per record.
      formatters.set(zone, null);
    }
  }
  return formatters.get(zone) ?? null;
}

/** The zone's offset from UTC at an instant, in seconds, or undefined for an unknown/absent zone. */
export function zoneOffsetSeconds(zone: unknown, epochS: number): number | undefined {
  if (typeof zone !== 'string' || zone === '' || !Number.isFinite(epochS)) return undefined;
  const f = formatterFor(zone);
  if (!f) return undefined;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(Math.floor(epochS) * 1000))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) / 1000;
  const offset = asUtc - Math.floor(epochS);
  // Real zones lie within UTC-12..UTC+14; anything else means Intl gave us something we cannot trust.
  return Number.isInteger(offset) && Math.abs(offset) <= 14 * 3600 ? offset : undefined;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` to its UTC midnight (epoch seconds), or undefined when it is not a real date. */
export function ymdToUtcMidnight(ymd: unknown): number | undefined {
  if (typeof ymd !== 'string') return undefined;
  const m = YMD.exec(ymd);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000;
  return utcYmd(t) === ymd ? t : undefined;
}

/**
 * The instant a local calendar day starts in `zone` (Withings' activity `date` is a local day).
 * Without a known zone the day is taken as a UTC day. Two passes settle DST transitions.
 */
export function localMidnight(ymd: string, zone: unknown): number | undefined {
  const utcMidnight = ymdToUtcMidnight(ymd);
  if (utcMidnight === undefined) return undefined;
  const first = zoneOffsetSeconds(zone, utcMidnight);
  if (first === undefined) return utcMidnight;
  const guess = utcMidnight - first;
  const second = zoneOffsetSeconds(zone, guess) ?? first;
  return utcMidnight - second;
}

/**
 * The `startdateymd`/`enddateymd` to ask for a UTC window: Withings filters those services by
 * local calendar date, and a local day can start up to 14 h before or 12 h after the UTC one, so
 * the range is padded by a day each side and the mapper keeps only records starting in the window
 * (each record then belongs to exactly one window).
 */
export function paddedYmdRange(start: Date, end: Date): { startdateymd: string; enddateymd: string } {
  const from = Math.floor(start.getTime() / 1000) - DAY_S;
  const to = Math.ceil(end.getTime() / 1000) + DAY_S;
  return { startdateymd: utcYmd(from), enddateymd: utcYmd(to) };
}

export const inWindow = (epochS: number, start: Date, end: Date): boolean => epochS * 1000 >= start.getTime() && epochS * 1000 < end.getTime();
