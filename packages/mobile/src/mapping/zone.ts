/**
 * Offsets and local days. A sample's own zone (HealthKit `HKMetadataKeyTimeZone`, Health Connect
 * `zoneOffset`/`startZoneOffset`) gives the offset the SDK sends; without one the SDK sends none
 * (the service then uses the user's profile zone) and only groups the sample into a local day with
 * the phone's zone.
 */

const formats = new Map<string, Intl.DateTimeFormat | null>();
const offsets = new Map<string, number | undefined>();
const SLOT = 15 * 60_000;

/**
 * Seconds east of UTC of an IANA zone at an instant, or undefined when the zone is unknown to Intl.
 * Cached per zone and quarter hour (zone changes happen on those): a month of samples asks Intl a
 * few thousand times instead of once per sample.
 */
export function zoneOffsetAt(zone: string, at: Date): number | undefined {
  const slot = Math.floor(at.getTime() / SLOT);
  // Consecutive samples mostly share a zone and a quarter hour: answered without building a key.
  if (zone === last.zone && slot === last.slot) return last.offset;
  const key = `${zone}|${slot}`;
  let offset: number | undefined;
  if (offsets.has(key)) offset = offsets.get(key);
  else {
    offset = computeOffset(zone, new Date(slot * SLOT));
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(key, offset);
  }
  last.zone = zone;
  last.slot = slot;
  last.offset = offset;
  return offset;
}

const last: { zone?: string; slot: number; offset?: number } = { slot: NaN };

function formatFor(zone: string): Intl.DateTimeFormat | null {
  let f = formats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      });
    } catch {
      f = null;
    }
    formats.set(zone, f);
  }
  return f;
}

function computeOffset(zone: string, at: Date): number | undefined {
  const format = formatFor(zone);
  if (!format) return undefined;
  try {
    const parts = format.formatToParts(at);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 1000);
  } catch {
    return undefined;
  }
}

/** The phone's own offset at an instant (seconds east of UTC). */
export const phoneOffsetAt = (at: Date): number => -at.getTimezoneOffset() * 60;

/** The local calendar day (YYYY-MM-DD) of an instant at an offset. */
export const localDay = (at: Date, offsetSeconds: number): string => new Date(at.getTime() + offsetSeconds * 1000).toISOString().slice(0, 10);

/** The UTC instant a local day starts at, for an offset. */
export const localDayStart = (day: string, offsetSeconds: number): Date => new Date(Date.parse(`${day}T00:00:00Z`) - offsetSeconds * 1000);
