/**
 * Google Health data points → Wellstream records: exercise → workout, sleep → sleep, weight and
 * body fat → measurement (heart rate is google-health-heartrate.ts). Only fields with a catalog metric are
 * mapped, in the unit Google documents, converted where the catalog has none (millimetres → m,
 * grams → kg, minutes → s). `log_id` is `<dataType>:<data point id>` (the last segment of its
 * `name`), so an edited data point replaces its record. README.md lists every field left out.
 */
import type { IngestRecordOf, ValueMetric, WorkoutCategory } from '../provider.port';
import {
  badResponse,
  dataPointId,
  Json,
  optionalDurationS,
  optionalNumber,
  optionalObject,
  optionalString,
  readInterval,
  readSampleTime,
  requireArray,
  requireInstant,
  requireObject,
  utcTime,
} from './google-health-json';

const SOURCE = { type: 'google_health' } as const;
type Origin = ValueMetric['origin'];

const metric = (type: string, unit: string, value: number | undefined, origin: Origin = 'device'): ValueMetric[] =>
  value === undefined ? [] : [{ type, unit, value, origin }];

const withOffset = (offsetS: number | undefined) => (offsetS === undefined ? {} : { utc_offset: offsetS });

/** Google's ExerciseType values onto the catalog's categories; anything else is `other`. */
const CATEGORIES: Record<string, WorkoutCategory> = {
  RUNNING: 'running',
  TREADMILL_RUNNING: 'running',
  BIKING: 'cycling',
  CYCLING: 'cycling',
  SPINNING: 'cycling',
  WALKING: 'walking',
  HIKING: 'hiking',
  SWIMMING: 'swimming',
  SWIMMING_POOL: 'swimming',
  SWIMMING_OPEN_WATER: 'swimming',
  ROWING: 'rowing',
  ROWING_MACHINE: 'rowing',
  WEIGHTLIFTING: 'strength',
  STRENGTH_TRAINING: 'strength',
  YOGA: 'yoga',
};

export const workoutCategory = (exerciseType: string | undefined): WorkoutCategory => (exerciseType && CATEGORIES[exerciseType]) || 'other';

/** The typed payload of a data point (`exercise`, `sleep`, …): the union field named for its data type. */
const payload = (point: Json, field: string, what: string): Json => requireObject(point[field], `${what}.${field}`);

/** Exercise (a session) → `workout`, from its interval and metricsSummary. */
export function mapExercise(point: Json): IngestRecordOf<'workout'> {
  const what = 'exercise';
  const id = dataPointId(point, what);
  const e = payload(point, 'exercise', what);
  const { startMs, endMs, startOffsetS } = readInterval(e, what);
  const type = optionalString(e, 'exerciseType', what);
  const name = optionalString(e, 'displayName', what) || type || 'Exercise';
  const s = optionalObject(e, 'metricsSummary', what) ?? {};
  const n = (key: string) => optionalNumber(s, key, `${what}.metricsSummary`);
  const distanceMm = n('distanceMillimeters');
  return {
    type: 'workout',
    source: SOURCE,
    log_id: `exercise:${id}`,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    ...withOffset(startOffsetS),
    category: workoutCategory(type),
    name: name.slice(0, 200),
    metrics: [
      // "caloriesKcal: total active calories burned during the exercise" (workouts guide).
      ...metric('active_energy_burned', 'kcal', n('caloriesKcal')),
      ...metric('distance', 'm', distanceMm === undefined ? undefined : distanceMm / 1000),
      ...metric('steps', 'count', n('steps')),
      ...metric('avg_heart_rate', 'bpm', n('averageHeartRateBeatsPerMinute')),
      ...metric('active_duration', 's', optionalDurationS(e, 'activeDuration', what)),
    ],
  };
}

const STAGES: Record<string, 'awake' | 'light' | 'deep' | 'rem'> = { AWAKE: 'awake', RESTLESS: 'awake', LIGHT: 'light', DEEP: 'deep', REM: 'rem' };

/**
 * The sleep's stage segments, Sleep.SleepStage: `{type, startTime, endTime, startUtcOffset,
 * endUtcOffset}`, type AWAKE, LIGHT, DEEP, REM, ASLEEP or RESTLESS (v4 REST reference and its
 * generated clients). A segment of another shape is an unreadable answer (bad_response); a type
 * with no catalog stage (classic sleep's ASLEEP, an unspecified one) is left out. Segments are
 * clipped to the sleep's interval.
 */
function sleepStages(sleep: Json, startMs: number, endMs: number) {
  const raw = sleep.stages === undefined || sleep.stages === null ? [] : requireArray(sleep.stages, 'sleep.stages');
  const stages: { stage: 'awake' | 'light' | 'deep' | 'rem'; start_time: string; end_time: string }[] = [];
  for (const [i, s] of raw.entries()) {
    const seg = requireObject(s, `sleep.stages[${i}]`);
    const from = Math.max(startMs, requireInstant(seg, 'startTime', `sleep.stages[${i}]`));
    const to = Math.min(endMs, requireInstant(seg, 'endTime', `sleep.stages[${i}]`));
    const type = optionalString(seg, 'type', `sleep.stages[${i}]`);
    const stage = type ? STAGES[type] : undefined;
    if (stage && from < to) stages.push({ stage, start_time: utcTime(from), end_time: utcTime(to) });
  }
  return stages.sort((a, b) => a.start_time.localeCompare(b.start_time)).slice(0, 500);
}

const stageSeconds = (stages: ReturnType<typeof sleepStages>, stage: string): number | undefined => {
  const own = stages.filter((s) => s.stage === stage);
  return own.length ? own.reduce((sum, s) => sum + (Date.parse(s.end_time) - Date.parse(s.start_time)) / 1000, 0) : undefined;
};

/** Sleep → `sleep`: its interval, SleepSummary's minutes, and the stages. */
export function mapSleep(point: Json): IngestRecordOf<'sleep'> {
  const what = 'sleep';
  const id = dataPointId(point, what);
  const sleep = payload(point, 'sleep', what);
  const { startMs, endMs, startOffsetS } = readInterval(sleep, what);
  const summary = optionalObject(sleep, 'summary', what) ?? {};
  const minutes = (key: string) => {
    const m = optionalNumber(summary, key, `${what}.summary`);
    return m === undefined ? undefined : m * 60;
  };
  const stages = sleepStages(sleep, startMs, endMs);
  return {
    type: 'sleep',
    source: SOURCE,
    log_id: `sleep:${id}`,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    ...withOffset(startOffsetS),
    metrics: [
      ...metric('in_bed_duration', 's', minutes('minutesInSleepPeriod')),
      ...metric('sleep_duration', 's', minutes('minutesAsleep')),
      ...metric('awake_duration', 's', minutes('minutesAwake')),
      ...metric('time_to_fall_asleep', 's', minutes('minutesToFallAsleep')),
      ...metric('light_sleep_duration', 's', stageSeconds(stages, 'light')),
      ...metric('deep_sleep_duration', 's', stageSeconds(stages, 'deep')),
      ...metric('rem_sleep_duration', 's', stageSeconds(stages, 'rem')),
    ],
    stages,
  };
}

/** Weight (a sample) → `measurement` of body_weight in kg. `notes` means the user logged it by hand. */
export function mapWeight(point: Json): IngestRecordOf<'measurement'> {
  const what = 'weight';
  const id = dataPointId(point, what);
  const w = payload(point, 'weight', what);
  const { atMs, offsetS } = readSampleTime(w, what);
  const grams = optionalNumber(w, 'weightGrams', what);
  if (grams === undefined || grams <= 0) throw badResponse(`${what} ${id} has no weightGrams`);
  const origin: Origin = optionalString(w, 'notes', what) ? 'manual' : 'unknown';
  return {
    type: 'measurement',
    source: SOURCE,
    log_id: `weight:${id}`,
    start_time: utcTime(atMs),
    end_time: utcTime(atMs),
    ...withOffset(offsetS),
    metrics: metric('body_weight', 'kg', Math.round(grams) / 1000, origin),
  };
}

/** BodyFat (`percentage`, 0–100, at `sampleTime`) → `measurement` with `body_fat` percent. */
export function mapBodyFat(point: Json): IngestRecordOf<'measurement'> {
  const what = 'body-fat';
  const id = dataPointId(point, what);
  const b = payload(point, 'bodyFat', what);
  const { atMs, offsetS } = readSampleTime(b, what);
  const percent = optionalNumber(b, 'percentage', what);
  if (percent === undefined || percent < 0 || percent > 100) throw badResponse(`${what} ${id} has no percentage in [0, 100]`);
  return {
    type: 'measurement',
    source: SOURCE,
    log_id: `body_fat:${id}`,
    start_time: utcTime(atMs),
    end_time: utcTime(atMs),
    ...withOffset(offsetS),
    metrics: metric('body_fat', 'percent', percent, 'unknown'),
  };
}
