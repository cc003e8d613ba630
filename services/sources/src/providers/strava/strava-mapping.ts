/**
 * Strava activities (SummaryActivity, or DetailedActivity when one is at hand) → Wellstream
 * `workout` records. `log_id` is the activity id, so a webhook `delete` for that id deletes the
 * record. Only fields with a catalog metric are mapped, in the unit Strava documents; everything
 * else (max_speed, watts, kilojoules, suffer_score, elevation extremes, …) is left out. README.md
 * has the table.
 */
import type { IngestRecordOf, ValueMetric, WorkoutCategory } from '../provider.port';
import { badResponse, instant, Json, optionalNumber, optionalString, requireId, requireString, utcTime } from './strava-json';

type Metric = ValueMetric;
type Origin = Metric['origin'];

const MAX_OFFSET_S = 14 * 3600;

/** SportType (falling back to the deprecated `type`) → the catalog's workout categories. */
const CATEGORIES: Record<string, WorkoutCategory> = {
  Run: 'running',
  TrailRun: 'running',
  VirtualRun: 'running',
  Ride: 'cycling',
  MountainBikeRide: 'cycling',
  GravelRide: 'cycling',
  EBikeRide: 'cycling',
  EMountainBikeRide: 'cycling',
  VirtualRide: 'cycling',
  Velomobile: 'cycling',
  Walk: 'walking',
  Hike: 'hiking',
  Swim: 'swimming',
  Rowing: 'rowing',
  VirtualRow: 'rowing',
  WeightTraining: 'strength',
  Yoga: 'yoga',
};

export const workoutCategory = (sport: string): WorkoutCategory => CATEGORIES[sport] ?? 'other';

/** The offset, in seconds, of an Olson zone at an instant; undefined when the zone is unknown. */
function zoneOffset(zone: string, ms: number): number | undefined {
  try {
    const label = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value;
    if (label === 'GMT') return 0;
    const m = label ? /^GMT([+-])(\d{2}):(\d{2})$/.exec(label) : null;
    if (!m) return undefined;
    const s = Number(m[2]) * 3600 + Number(m[3]) * 60;
    return m[1] === '-' ? -s : s;
  } catch {
    return undefined;
  }
}

/**
 * The activity's UTC offset: its `utc_offset` (seconds, as in the documented examples), else the
 * Olson zone named in `timezone` ("(GMT-08:00) America/Los_Angeles") at the start time. The
 * "(GMT-08:00)" label is the zone's standard offset, not the one in force (the documented example
 * pairs it with utc_offset -25200 in May), so it is never used as the offset. Undefined when neither
 * is readable: the user's profile decides.
 */
export function activityOffset(doc: Json, startMs: number): number | undefined {
  const offset = optionalNumber(doc, 'utc_offset', 'activity');
  if (offset !== undefined && Number.isInteger(offset) && Math.abs(offset) <= MAX_OFFSET_S) return offset;
  const tz = optionalString(doc, 'timezone', 'activity');
  const zone = tz ? /^(?:\(GMT[+-]\d{2}:\d{2}\)\s+)?([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)$/.exec(tz.trim())?.[1] : undefined;
  const fromZone = zone ? zoneOffset(zone, startMs) : undefined;
  return fromZone !== undefined && Math.abs(fromZone) <= MAX_OFFSET_S ? fromZone : undefined;
}

function metric(type: string, unit: string, value: number | undefined, origin: Origin): Metric[] {
  return value === undefined || value < 0 ? [] : [{ type, unit, value, origin }];
}

export function mapActivity(doc: Json): IngestRecordOf<'workout'> {
  const what = 'activity';
  const id = requireId(doc, 'id', what);
  const startMs = instant(requireString(doc, 'start_date', what), `${what} ${id}.start_date`);
  const n = (key: string) => optionalNumber(doc, key, `${what} ${id}`);
  const elapsed = n('elapsed_time');
  const moving = n('moving_time');
  if ((elapsed ?? 0) < 0 || (moving ?? 0) < 0) throw badResponse(`${what} ${id} has a negative duration`);
  // elapsed_time is the wall-clock span of the activity; moving_time excludes pauses.
  const endMs = startMs + Math.round((elapsed ?? moving ?? 0) * 1000);
  const sport = optionalString(doc, 'sport_type', what) ?? optionalString(doc, 'type', what) ?? '';
  const category = workoutCategory(sport);
  // "Whether this activity was created manually": its numbers were typed in, not recorded.
  const origin: Origin = doc.manual === true ? 'manual' : 'device';
  const name = optionalString(doc, 'name', what)?.trim();
  const deviceName = optionalString(doc, 'device_name', what)?.trim();
  const calories = n('calories');
  const offset = activityOffset(doc, startMs);
  return {
    type: 'workout',
    source: { type: 'strava', ...(deviceName ? { device: { name: deviceName.slice(0, 200) } } : {}) },
    log_id: id,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    ...(offset === undefined ? {} : { utc_offset: offset }),
    category,
    ...(name ? { name: name.slice(0, 200) } : {}),
    metrics: [
      ...metric('distance', 'm', n('distance'), origin),
      ...metric('active_duration', 's', moving, origin),
      ...metric('elevation', 'm', n('total_elevation_gain'), origin),
      ...metric('avg_speed', 'm/s', n('average_speed'), origin),
      ...metric('avg_heart_rate', 'bpm', n('average_heartrate'), origin),
      ...metric('max_heart_rate', 'bpm', n('max_heartrate'), origin),
      // Pedal revolutions per minute on rides; for runs Strava's unit is undocumented (not steps/min), so left out.
      ...(category === 'cycling' ? metric('avg_cadence', 'rpm', n('average_cadence'), origin) : []),
      // DetailedActivity only ("kilocalories consumed during this activity"); 0 is what Strava shows when it computed none.
      ...(calories !== undefined && calories > 0 ? metric('energy_burned', 'kcal', calories, origin) : []),
    ],
  };
}
