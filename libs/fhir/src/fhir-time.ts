/**
 * Record times (UTC) as FHIR dateTimes in the wearer's local time: the record's `utc_offset`
 * (seconds east of UTC) becomes the time's offset, so an EHR shows 07:30 for a morning weighing.
 * FHIR offsets are whole minutes; an offset with leftover seconds (none is real) stays in UTC.
 */
export function localDateTime(utc: string, utcOffsetSeconds: number | undefined): string {
  const t = Date.parse(utc);
  const offset = utcOffsetSeconds ?? 0;
  if (Number.isNaN(t) || offset === 0 || offset % 60 !== 0) return utc.replace(/\.\d+Z$/, 'Z');
  const local = new Date(t + offset * 1000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60;
  return `${local}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A point in time (start = end) is `effectiveDateTime`; an interval is `effectivePeriod`. */
export function effective(start: string, end: string, utcOffsetSeconds: number | undefined): { effectiveDateTime: string } | { effectivePeriod: { start: string; end: string } } {
  if (start === end) return { effectiveDateTime: localDateTime(start, utcOffsetSeconds) };
  return { effectivePeriod: { start: localDateTime(start, utcOffsetSeconds), end: localDateTime(end, utcOffsetSeconds) } };
}
