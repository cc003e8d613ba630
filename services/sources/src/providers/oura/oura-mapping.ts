/**
 * Oura documents → Wellstream records: daily_activity → summary, sleep → sleep, workout → workout.
 * Only fields with a catalog metric are mapped, with the unit Oura documents; every other field is
 * left out (README.md lists each one and why). `log_id` is Oura's document `id`, and `utc_offset`
 * is the offset Oura wrote into the document's own local times.
 */
import type { IngestRecord, IngestRecordOf, ValueMetric, WorkoutCategory } from '../provider.port';
import {
  badResponse,
  instant,
  Json,
  localMidnight,
  offsetSeconds,
  optionalNumber,
  optionalString,
  requireDay,
  requireString,
  utcTime,
  DAY_MS,
} from './oura-json';

type Metric = ValueMetric;
type Origin = Metric['origin'];

const SOURCE = { type: 'oura' } as const;

/** A metric when Oura gave a value (null means "no data" in Oura's models, never zero). */
function metric(type: string, unit: string, value: number | undefined, origin: Origin = 'device'): Metric[] {
  return value === undefined ? [] : [{ type, unit, value, origin }];
}

const withOffset = (offset: number | undefined) => (offset === undefined ? {} : { utc_offset: offset });

/**
 * PublicDailyActivity → one `summary` for the user's local day `day`: local midnight to the next,
 * at the offset of the document's `timestamp` (a LocalizedDateTime of that day).
 */
export function mapDailyActivity(doc: Json): IngestRecord {
  const what = 'daily_activity';
  const id = requireString(doc, 'id', what);
  const day = requireDay(doc, 'day', what);
  const offset = offsetSeconds(requireString(doc, 'timestamp', what));
  instant(requireString(doc, 'timestamp', what), `${what}.timestamp`);
  const start = localMidnight(day, offset ?? 0);
  return {
    type: 'summary',
    source: SOURCE,
    log_id: id,
    start_time: utcTime(start),
    end_time: utcTime(start + DAY_MS),
    ...withOffset(offset),
    category: 'daily',
    metrics: [
      ...metric('steps', 'count', optionalNumber(doc, 'steps', what)),
      ...metric('active_energy_burned', 'kcal', optionalNumber(doc, 'active_calories', what)),
      ...metric('energy_burned', 'kcal', optionalNumber(doc, 'total_calories', what)),
    ],
  };
}

/** `sleep_phase_5_min` characters (Oura: '1' deep, '2' light, '3' REM, '4' awake). */
const PHASES: Record<string, 'deep' | 'light' | 'rem' | 'awake'> = { '1': 'deep', '2': 'light', '3': 'rem', '4': 'awake' };
const PHASE_MS = 5 * 60_000;

/** Consecutive equal 5-minute phases merged into stages, clipped to bedtime_end; unknown characters end a stage. */
export function sleepStages(phases: string | undefined, startMs: number, endMs: number) {
  const stages: { stage: 'deep' | 'light' | 'rem' | 'awake'; start_time: string; end_time: string }[] = [];
  if (!phases) return stages;
  let i = 0;
  while (i < phases.length) {
    const stage = PHASES[phases[i]];
    let j = i + 1;
    while (j < phases.length && phases[j] === phases[i]) j++;
    const from = startMs + i * PHASE_MS;
    const to = Math.min(startMs + j * PHASE_MS, endMs);
    if (stage && from < to) stages.push({ stage, start_time: utcTime(from), end_time: utcTime(to) });
    i = j;
  }
  return stages.slice(0, 500);
}

/**
 * PublicModifiedSleepModel → `sleep` from bedtime_start to bedtime_end. Oura's `type` 'deleted'
 * (deleted by the user) and 'rest' (a falsely detected sleep the user rejected) are not sleeps: they
 * become deletions of the same log_id, so an earlier copy goes away.
 */
export function mapSleep(doc: Json): IngestRecordOf<'sleep'> {
  const what = 'sleep';
  const id = requireString(doc, 'id', what);
  const bedStart = requireString(doc, 'bedtime_start', what);
  const startMs = instant(bedStart, `${what}.bedtime_start`);
  const endMs = instant(requireString(doc, 'bedtime_end', what), `${what}.bedtime_end`);
  if (endMs < startMs) throw badResponse(`${what} ${id} ends before it starts`);
  const kind = optionalString(doc, 'type', what);
  const base = { type: 'sleep' as const, source: SOURCE, log_id: id, start_time: utcTime(startMs), end_time: utcTime(endMs), ...withOffset(offsetSeconds(bedStart)) };
  if (kind === 'deleted' || kind === 'rest') return { ...base, metrics: [], deleted: true };
  const n = (key: string) => optionalNumber(doc, key, what);
  return {
    ...base,
    metrics: [
      ...metric('sleep_duration', 's', n('total_sleep_duration')),
      ...metric('in_bed_duration', 's', n('time_in_bed')),
      ...metric('awake_duration', 's', n('awake_time')),
      ...metric('light_sleep_duration', 's', n('light_sleep_duration')),
      ...metric('deep_sleep_duration', 's', n('deep_sleep_duration')),
      ...metric('rem_sleep_duration', 's', n('rem_sleep_duration')),
      ...metric('time_to_fall_asleep', 's', n('latency')),
      ...metric('restless_count', 'count', n('restless_periods')),
    ],
    stages: sleepStages(optionalString(doc, 'sleep_phase_5_min', what), startMs, endMs),
  };
}

/** Oura's free-text `activity` names onto the catalog's workout categories; anything else is `other`. */
const CATEGORIES: Record<string, WorkoutCategory> = {
  running: 'running',
  cycling: 'cycling',
  walking: 'walking',
  hiking: 'hiking',
  swimming: 'swimming',
  rowing: 'rowing',
  strengthtraining: 'strength',
  strength_training: 'strength',
  weightlifting: 'strength',
  yoga: 'yoga',
};

export const workoutCategory = (activity: string): WorkoutCategory => CATEGORIES[activity.toLowerCase().replace(/[\s-]/g, '_')] ?? CATEGORIES[activity.toLowerCase().replace(/[\s_-]/g, '')] ?? 'other';

/** PublicWorkout → `workout`. A workout the user typed in (`source: manual`) has `manual` metrics. */
export function mapWorkout(doc: Json): IngestRecord {
  const what = 'workout';
  const id = requireString(doc, 'id', what);
  const activity = requireString(doc, 'activity', what);
  const start = requireString(doc, 'start_datetime', what);
  const startMs = instant(start, `${what}.start_datetime`);
  const endMs = instant(requireString(doc, 'end_datetime', what), `${what}.end_datetime`);
  if (endMs < startMs) throw badResponse(`${what} ${id} ends before it starts`);
  const origin: Origin = optionalString(doc, 'source', what) === 'manual' ? 'manual' : 'device';
  const label = optionalString(doc, 'label', what);
  return {
    type: 'workout',
    source: SOURCE,
    log_id: id,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    ...withOffset(offsetSeconds(start)),
    category: workoutCategory(activity),
    name: (label || activity).slice(0, 200),
    metrics: [
      ...metric('energy_burned', 'kcal', optionalNumber(doc, 'calories', what), origin),
      ...metric('distance', 'm', optionalNumber(doc, 'distance', what), origin),
    ],
  };
}
