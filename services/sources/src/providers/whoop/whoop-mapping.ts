/**
 * WHOOP v2 objects → Wellstream records: Cycle → summary, Recovery → summary (timed by its cycle),
 * Sleep → sleep, WorkoutV2 → workout, UserBodyMeasurement → measurement. Only fields with a
 * catalog metric are mapped, in WHOOP's own units where the catalog accepts them (kJ, m, kg);
 * everything else is left out (README.md lists each field and why). `log_id` is WHOOP's id of the
 * object its webhooks name: the cycle id, the sleep UUID, the workout UUID, and for a recovery the
 * UUID of its sleep (v2 recovery webhooks carry that one). Scores are present only when
 * `score_state` is SCORED; an unscored object still becomes a record, without metrics.
 */
import type { IngestRecord, ValueMetric, WorkoutCategory } from '../provider.port';
import {
  badResponse,
  instant,
  Json,
  offsetSeconds,
  optionalInstant,
  optionalNumber,
  optionalObject,
  requireId,
  requireString,
  utcTime,
} from './whoop-json';

type Metric = ValueMetric;

const SOURCE = { type: 'whoop' } as const;

function metric(type: string, unit: string, value: number | undefined): Metric[] {
  return value === undefined ? [] : [{ type, unit, value, origin: 'device' }];
}

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

/** The score when WHOOP says the object is scored (else it is absent or not to be trusted). */
function scoreOf(o: Json, what: string): Json | undefined {
  const state = requireString(o, 'score_state', what);
  return state === 'SCORED' ? optionalObject(o, 'score', what) : undefined;
}

/** A cycle's time span. A cycle without `end` is the one the user is in: it runs to `openEnd`. */
export interface CycleSpan {
  startMs: number;
  endMs: number;
  offset: number;
}

export function cycleSpan(cycle: Json, openEnd: number): CycleSpan {
  const what = 'cycle';
  const startMs = instant(cycle, 'start', what);
  const end = optionalInstant(cycle, 'end', what);
  const endMs = end ?? Math.max(startMs, openEnd);
  if (endMs < startMs) throw badResponse(`cycle ends before it starts`);
  return { startMs, endMs, offset: offsetSeconds(cycle, 'timezone_offset', what) };
}

/**
 * Cycle → `summary` over the physiological cycle (WHOOP's "day": sleep onset to the next).
 * `kilojoule` → energy_burned in kJ. Left out: strain (no catalog metric), average and max heart
 * rate (the catalog has them for workouts only).
 */
export function mapCycle(cycle: Json, openEnd: number): IngestRecord {
  const what = 'cycle';
  const id = requireId(cycle, 'id', what);
  const span = cycleSpan(cycle, openEnd);
  const score = scoreOf(cycle, what);
  return {
    type: 'summary',
    source: SOURCE,
    log_id: id,
    start_time: utcTime(span.startMs),
    end_time: utcTime(span.endMs),
    utc_offset: span.offset,
    category: 'daily',
    metrics: score ? metric('energy_burned', 'kJ', optionalNumber(score, 'kilojoule', `${what}.score`)) : [],
  };
}

/**
 * Recovery → `summary` over its cycle's span, log_id = `recovery:<sleep_id>`. `resting_heart_rate` →
 * resting_heart_rate (bpm). Left out: recovery_score, hrv_rmssd_milli, skin_temp_celsius (no
 * catalog metric) and spo2_percentage (oxygen_saturation is not a summary metric).
 */
export function mapRecovery(recovery: Json, span: CycleSpan): IngestRecord {
  const what = 'recovery';
  const sleepId = requireId(recovery, 'sleep_id', what);
  const score = scoreOf(recovery, what);
  return {
    type: 'summary',
    source: SOURCE,
    // Not the sleep's UUID alone: that is the sleep record's identity already (type is not part of it).
    log_id: recoveryLogId(sleepId),
    start_time: utcTime(span.startMs),
    end_time: utcTime(span.endMs),
    utc_offset: span.offset,
    category: 'daily',
    metrics: score ? metric('resting_heart_rate', 'bpm', optionalNumber(score, 'resting_heart_rate', `${what}.score`)) : [],
  };
}

/**
 * Sleep → `sleep` from `start` to `end`, stage totals from milliseconds to seconds. Slow wave sleep
 * is deep sleep; time asleep is light + slow wave + REM. WHOOP v2 has no stage timeline, so
 * `stages` is empty. Naps are sleeps too.
 */
export function mapSleep(sleep: Json): IngestRecord {
  const what = 'sleep';
  const id = requireId(sleep, 'id', what);
  const startMs = instant(sleep, 'start', what);
  const endMs = instant(sleep, 'end', what);
  if (endMs < startMs) throw badResponse(`sleep ${id} ends before it starts`);
  const score = scoreOf(sleep, what);
  const stages = score ? optionalObject(score, 'stage_summary', `${what}.score`) : undefined;
  const ms = (key: string) => (stages ? optionalNumber(stages, key, `${what}.score.stage_summary`) : undefined);
  const light = ms('total_light_sleep_time_milli');
  const deep = ms('total_slow_wave_sleep_time_milli');
  const rem = ms('total_rem_sleep_time_milli');
  const asleep = light !== undefined && deep !== undefined && rem !== undefined ? light + deep + rem : undefined;
  return {
    type: 'sleep',
    source: SOURCE,
    log_id: id,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    utc_offset: offsetSeconds(sleep, 'timezone_offset', what),
    metrics: [
      ...metric('in_bed_duration', 's', seconds(ms('total_in_bed_time_milli'))),
      ...metric('awake_duration', 's', seconds(ms('total_awake_time_milli'))),
      ...metric('light_sleep_duration', 's', seconds(light)),
      ...metric('deep_sleep_duration', 's', seconds(deep)),
      ...metric('rem_sleep_duration', 's', seconds(rem)),
      ...metric('sleep_duration', 's', seconds(asleep)),
    ],
    stages: [],
  };
}

/** WHOOP sport names (lower-case, e.g. `running`, `functional-fitness`) onto the catalog's workout categories. */
const CATEGORIES: Record<string, WorkoutCategory> = {
  running: 'running',
  treadmill_running: 'running',
  track_and_field: 'running',
  cycling: 'cycling',
  mountain_biking: 'cycling',
  spin: 'cycling',
  spinning: 'cycling',
  walking: 'walking',
  hiking: 'hiking',
  hiking_rucking: 'hiking',
  rucking: 'hiking',
  swimming: 'swimming',
  rowing: 'rowing',
  weightlifting: 'strength',
  powerlifting: 'strength',
  strength_trainer: 'strength',
  strength_training: 'strength',
  yoga: 'yoga',
  hot_yoga: 'yoga',
};

export const workoutCategory = (sport: string): WorkoutCategory => CATEGORIES[sport.toLowerCase().trim().replace(/[^a-z0-9]+/g, '_')] ?? 'other';

/**
 * WorkoutV2 → `workout`. kilojoule → energy_burned (kJ), average/max heart rate → avg/max_heart_rate,
 * distance_meter → distance (m), altitude_gain_meter → elevation (m, "elevation gained"). Left out:
 * strain, percent_recorded, altitude_change_meter, and zone_durations (WHOOP's six zones do not
 * fit the catalog's four).
 */
export function mapWorkout(workout: Json): IngestRecord {
  const what = 'workout';
  const id = requireId(workout, 'id', what);
  const startMs = instant(workout, 'start', what);
  const endMs = instant(workout, 'end', what);
  if (endMs < startMs) throw badResponse(`workout ${id} ends before it starts`);
  const sport = requireString(workout, 'sport_name', what);
  const score = scoreOf(workout, what);
  const n = (key: string) => (score ? optionalNumber(score, key, `${what}.score`) : undefined);
  return {
    type: 'workout',
    source: SOURCE,
    log_id: id,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    utc_offset: offsetSeconds(workout, 'timezone_offset', what),
    category: workoutCategory(sport),
    name: sport.slice(0, 200),
    metrics: [
      ...metric('energy_burned', 'kJ', n('kilojoule')),
      ...metric('avg_heart_rate', 'bpm', n('average_heart_rate')),
      ...metric('max_heart_rate', 'bpm', n('max_heart_rate')),
      ...metric('distance', 'm', n('distance_meter')),
      ...metric('elevation', 'm', n('altitude_gain_meter')),
    ],
  };
}

/**
 * UserBodyMeasurement → one `measurement` at `atMs` (the object has no id and no time: it is the
 * user's current profile values). weight_kilogram → body_weight (kg), height_meter → height (m).
 * max_heart_rate is left out: the catalog's max_heart_rate is a workout metric, and heart_rate is
 * a measured rate, not WHOOP's calculated maximum. log_id is one per UTC day.
 */
export function mapBodyMeasurement(body: Json, atMs: number): IngestRecord | undefined {
  const what = 'body_measurement';
  const metrics = [
    ...metric('body_weight', 'kg', optionalNumber(body, 'weight_kilogram', what)),
    ...metric('height', 'm', optionalNumber(body, 'height_meter', what)),
  ];
  optionalNumber(body, 'max_heart_rate', what);
  if (metrics.length === 0) return undefined;
  const at = utcTime(atMs);
  return { type: 'measurement', source: SOURCE, log_id: `body_measurement:${at.slice(0, 10)}`, start_time: at, end_time: at, metrics };
}

/** A recovery's log_id: its sleep's UUID, prefixed (the sleep record holds the bare UUID). */
export const recoveryLogId = (sleepId: string) => `recovery:${sleepId}`;
