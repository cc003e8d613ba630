/**
 * ISO 8601 durations (`P3D`, `PT12H`, `P1W`, `P1Y2M10DT2H30M`, `PT0.5H`) for rule windows.
 * Parsed here rather than through a library because the grammar is small and the rules feature
 * needs exact control over what is rejected.
 *
 * A window is a sliding span of fixed length, so calendar units get their nominal lengths
 * (Y = 365 days, M = 30 days, W = 7 days, D = 24 hours): evaluation runs in UTC, where a day is
 * always 24 hours, and a rule's window must not change length with the month it is evaluated in.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DATE_UNITS: Record<string, number> = { Y: 365 * DAY, M: 30 * DAY, W: 7 * DAY, D: DAY };
const TIME_UNITS: Record<string, number> = { H: HOUR, M: MINUTE, S: SECOND };

// Designators must appear in this order; a number may use `.` or `,` as its decimal separator.
const PATTERN =
  /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

const DESIGNATORS: [string, number][] = [
  ['Y', DATE_UNITS.Y],
  ['M', DATE_UNITS.M],
  ['W', DATE_UNITS.W],
  ['D', DATE_UNITS.D],
  ['H', TIME_UNITS.H],
  ['M', TIME_UNITS.M],
  ['S', TIME_UNITS.S],
];

export type DurationParse = { ok: true; ms: number } | { ok: false; reason: string };

/** Parses an ISO 8601 duration into milliseconds of nominal length. */
export function parseIsoDuration(text: string): DurationParse {
  const m = PATTERN.exec(text);
  if (!m) return { ok: false, reason: 'must be an ISO 8601 duration such as P3D, PT12H or P1W' };
  const parts = m.slice(1, 8);
  const present = parts.map((p, i) => (p === undefined ? -1 : i)).filter((i) => i >= 0);
  if (present.length === 0) return { ok: false, reason: 'must name at least one amount, e.g. P3D' };
  // `PT` with nothing after it is not a duration ("P1DT" neither).
  if (/T$/.test(text)) return { ok: false, reason: 'must have a time amount after T' };
  let ms = 0;
  for (const i of present) {
    const raw = parts[i] as string;
    const fractional = /[.,]/.test(raw);
    // ISO 8601 allows a decimal fraction only on the smallest (last) component.
    if (fractional && i !== present[present.length - 1]) {
      return { ok: false, reason: 'only the last component may have a decimal fraction' };
    }
    ms += Number(raw.replace(',', '.')) * DESIGNATORS[i][1];
  }
  if (!Number.isFinite(ms)) return { ok: false, reason: 'is too long' };
  return { ok: true, ms: Math.round(ms) };
}
