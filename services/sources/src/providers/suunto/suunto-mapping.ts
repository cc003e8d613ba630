/**
 * Suunto answers → Wellstream records: a workout → `workout`, a day of the daily activity
 * statistics → `summary`, a 24/7 sleep entry → `sleep`, a UTC day of 24/7 activity samples →
 * `intraday`. Only fields with a catalog metric are mapped (README.md lists each field and why);
 * recovery (Balance, StressState) and HRV have none and are left out.
 */
import type { IngestRecord, IngestRecordOf, ValueMetric, WorkoutCategory } from '../provider.port';
import { badResponse, DAY_MS, epochMs, isoTime, Json, optionalNumber, optionalObject, requireId, requireObject, startOfUtcDay, utcDay, utcTime } from './suunto-json';

const SOURCE = { type: 'suunto' } as const;

const metric = (type: string, unit: string, value: number | undefined): ValueMetric[] => (value === undefined || value < 0 ? [] : [{ type, unit, value, origin: 'device' }]);

/**
 * Heart rate in beats per minute. Suunto's 24/7 samples give it in hertz (beats a second, e.g.
 * `0.93`); its workout summaries in bpm. No human heart beats under 10 times a minute, so a value
 * under 10 is read as hertz.
 */
export const bpm = (v: number | undefined): number | undefined => (v === undefined || v <= 0 ? undefined : Math.round((v < 10 ? v * 60 : v) * 10) / 10);

/**
 * Suunto activity ids (its Activities reference, the ids Sports Tracker shares) onto the catalog's
 * workout categories; any other id is `other`.
 */
const CATEGORIES: Record<number, WorkoutCategory> = {
  0: 'walking', 1: 'running', 2: 'cycling', 10: 'cycling', 11: 'hiking', 15: 'rowing', 21: 'swimming', 22: 'running', 23: 'strength', 24: 'walking', 27: 'swimming', 52: 'running', 69: 'yoga',
};
export const workoutCategory = (activityId: number | undefined): WorkoutCategory => (activityId === undefined ? 'other' : CATEGORIES[activityId] ?? 'other');

/**
 * A workout (the list's items, the workout by key and the webhook's `workout` share the shape):
 * `startTime`/`stopTime` epoch ms (else start + `totalTime` s), `timeOffsetInMinutes` the user's
 * offset; energyConsumption (kcal) → energy_burned, hrdata.workoutAvgHR/workoutMaxHR →
 * avg/max_heart_rate, totalDistance (m) → distance, totalAscent (m) → elevation, stepCount →
 * steps, avgSpeed (m/s) → avg_speed, totalTime (s) → active_duration.
 */
export function mapWorkout(w: Json): IngestRecordOf<'workout'> {
  const what = 'workout';
  const key = 'workoutKey' in w ? requireId(w, 'workoutKey', what) : requireId(w, 'key', what);
  const startMs = epochMs(w, 'startTime', what);
  const totalTime = optionalNumber(w, 'totalTime', what);
  const stop = optionalNumber(w, 'stopTime', what);
  const endMs = stop !== undefined ? stop : startMs + Math.max(0, totalTime ?? 0) * 1000;
  if (endMs < startMs) throw badResponse(`workout ${key} ends before it starts`);
  const offsetMin = optionalNumber(w, 'timeOffsetInMinutes', what);
  if (offsetMin !== undefined && Math.abs(offsetMin) > 14 * 60) throw badResponse(`workout ${key} has an offset out of range`);
  const activityId = optionalNumber(w, 'activityId', what);
  const hr = optionalObject(w, 'hrdata', what);
  return {
    type: 'workout',
    source: SOURCE,
    log_id: key,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    ...(offsetMin !== undefined ? { utc_offset: Math.round(offsetMin) * 60 } : {}),
    category: workoutCategory(activityId),
    ...(activityId !== undefined ? { name: `Suunto activity ${activityId}` } : {}),
    metrics: [
      ...metric('energy_burned', 'kcal', optionalNumber(w, 'energyConsumption', what)),
      ...metric('avg_heart_rate', 'bpm', bpm(hr ? optionalNumber(hr, 'workoutAvgHR', `${what}.hrdata`) : undefined)),
      ...metric('max_heart_rate', 'bpm', bpm(hr ? optionalNumber(hr, 'workoutMaxHR', `${what}.hrdata`) : undefined)),
      ...metric('distance', 'm', optionalNumber(w, 'totalDistance', what)),
      ...metric('elevation', 'm', optionalNumber(w, 'totalAscent', what)),
      ...metric('steps', 'count', optionalNumber(w, 'stepCount', what)),
      ...metric('avg_speed', 'm/s', optionalNumber(w, 'avgSpeed', what)),
      ...metric('active_duration', 's', totalTime),
    ],
  };
}

/**
 * The daily activity statistics (`[{Name, Aggregation, Sources: [{Name, Samples: [{TimeISO8601,
 * Value}]}]}]`, UTC) → one `summary` a day, log_id `daily_activity:<day>`: `stepcount` → steps,
 * `energyconsumption` (joules) → energy_burned in kJ. Every source (device) of a day is summed; a
 * null Value is no data. Other statistics' names are left out.
 */
export function mapDailyStatistics(stats: unknown[]): IngestRecord[] {
  const days = new Map<number, { steps?: number; joules?: number }>();
  stats.forEach((s, i) => {
    const stat = requireObject(s, `daily statistics[${i}]`);
    const name = stat.Name;
    if (name !== 'stepcount' && name !== 'energyconsumption') return;
    const sources = stat.Sources;
    if (!Array.isArray(sources)) throw badResponse(`daily statistics[${i}].Sources is not an array`);
    for (const src of sources) {
      const samples = requireObject(src, `daily statistics[${i}].Sources[]`).Samples;
      if (!Array.isArray(samples)) throw badResponse(`daily statistics[${i}].Samples is not an array`);
      for (const raw of samples) {
        const sample = requireObject(raw, 'daily statistics sample');
        const value = optionalNumber(sample, 'Value', 'daily statistics sample');
        if (value === undefined) continue;
        const day = startOfUtcDay(isoTime(sample.TimeISO8601, 'daily statistics sample.TimeISO8601').ms);
        const d = days.get(day) ?? {};
        if (name === 'stepcount') d.steps = (d.steps ?? 0) + value;
        else d.joules = (d.joules ?? 0) + value;
        days.set(day, d);
      }
    }
  });
  return [...days.entries()].sort(([a], [b]) => a - b).map(([day, d]) => ({
    type: 'summary',
    source: SOURCE,
    log_id: `daily_activity:${utcDay(day)}`,
    start_time: utcTime(day),
    end_time: utcTime(day + DAY_MS),
    category: 'daily',
    metrics: [...metric('steps', 'count', d.steps === undefined ? undefined : Math.round(d.steps)), ...metric('energy_burned', 'kJ', d.joules === undefined ? undefined : Math.round(d.joules) / 1000)],
  }));
}

/**
 * One 24/7 sleep entry (`{timestamp, entryData}`) → `sleep` from BedtimeStart to BedtimeEnd (else
 * start + Duration), log_id `sleep:<SleepId>` (else its start). Stage totals in seconds: Deep,
 * Light and REMSleepDuration; sleep_duration their sum; time_to_fall_asleep
 * SleepOnsetLatencyDuration; awake_duration WakeAfterSleepOnset + WakeBeforeOffBed; in_bed_duration
 * the bedtime span; sleep_score SleepQualityScore (0–1 read as a fraction). Suunto gives no stage
 * timeline: `stages` is empty. Left out: HRAvg, HRMin, AvgHRV, MaxSpo2 (no sleep metric for them).
 */
export function mapSleep(entry: unknown): IngestRecordOf<'sleep'> {
  const e = requireObject(entry, 'sleep entry');
  const stamp = isoTime(e.timestamp, 'sleep entry.timestamp');
  const d = requireObject(e.entryData, 'sleep entry.entryData');
  const n = (key: string) => optionalNumber(d, key, 'sleep entryData');
  const start = d.BedtimeStart === undefined || d.BedtimeStart === null ? stamp : isoTime(d.BedtimeStart, 'sleep BedtimeStart');
  const duration = n('Duration');
  const endMs = d.BedtimeEnd === undefined || d.BedtimeEnd === null ? start.ms + (duration ?? 0) * 1000 : isoTime(d.BedtimeEnd, 'sleep BedtimeEnd').ms;
  if (endMs < start.ms) throw badResponse('a sleep ends before it starts');
  const deep = n('DeepSleepDuration');
  const light = n('LightSleepDuration');
  const rem = n('REMSleepDuration');
  const waso = n('WakeAfterSleepOnsetDuration');
  const beforeOff = n('WakeBeforeOffBedDuration');
  const score = n('SleepQualityScore');
  const id = d.SleepId === undefined || d.SleepId === null ? String(start.ms) : requireId(d, 'SleepId', 'sleep entryData');
  const offset = start.offset ?? stamp.offset;
  return {
    type: 'sleep',
    source: SOURCE,
    log_id: `sleep:${id}`,
    start_time: utcTime(start.ms),
    end_time: utcTime(endMs),
    ...(offset !== undefined ? { utc_offset: offset } : {}),
    metrics: [
      ...metric('in_bed_duration', 's', Math.round((endMs - start.ms) / 1000)),
      ...metric('sleep_duration', 's', deep !== undefined || light !== undefined || rem !== undefined ? (deep ?? 0) + (light ?? 0) + (rem ?? 0) : undefined),
      ...metric('deep_sleep_duration', 's', deep),
      ...metric('light_sleep_duration', 's', light),
      ...metric('rem_sleep_duration', 's', rem),
      ...metric('time_to_fall_asleep', 's', n('SleepOnsetLatencyDuration')),
      ...metric('awake_duration', 's', waso !== undefined || beforeOff !== undefined ? (waso ?? 0) + (beforeOff ?? 0) : undefined),
      ...metric('sleep_score', 'percent', score === undefined ? undefined : Math.min(100, score <= 1 ? Math.round(score * 1000) / 10 : score)),
    ],
    stages: [],
  };
}

/** One 24/7 activity sample, read: its instant, heart rate (bpm) and steps. */
export interface ActivitySample {
  at: number;
  heartRate?: number;
  steps?: number;
}

export function readActivitySample(entry: unknown): ActivitySample {
  const e = requireObject(entry, 'activity sample');
  const at = isoTime(e.timestamp, 'activity sample.timestamp').ms;
  const d = requireObject(e.entryData, 'activity sample.entryData');
  return { at, heartRate: bpm(optionalNumber(d, 'HR', 'activity entryData')), steps: optionalNumber(d, 'StepCount', 'activity entryData') };
}

/**
 * 24/7 activity samples → one `intraday` a UTC day, log_id `activity:<day>`, with a heart_rate
 * (bpm, from HR in hertz) and a steps series (StepCount per sample). Suunto writes a sample every
 * ten minutes; the catalog's nearest granularity not finer than that is PT15M. A day's record holds
 * every sample of that day (the fetch reads whole UTC days), so a later copy never lacks one.
 */
export function activityDayRecords(samples: ActivitySample[]): IngestRecord[] {
  const byDay = new Map<number, Map<number, ActivitySample>>();
  for (const s of samples) {
    const day = startOfUtcDay(s.at);
    const m = byDay.get(day) ?? new Map<number, ActivitySample>();
    const second = Math.floor(s.at / 1000) * 1000;
    if (!m.has(second)) m.set(second, { ...s, at: second });
    byDay.set(day, m);
  }
  const out: IngestRecord[] = [];
  for (const [day, m] of [...byDay.entries()].sort(([a], [b]) => a - b)) {
    const list = [...m.values()].sort((a, b) => a.at - b.at).slice(0, 1440);
    const series = (type: string, unit: string, pick: (s: ActivitySample) => number | undefined) => {
      const points = list.flatMap((s) => (pick(s) === undefined ? [] : [{ time: utcTime(s.at), value: pick(s)! }]));
      return points.length ? [{ type, unit, origin: 'device' as const, granularity: 'PT15M' as const, samples: points }] : [];
    };
    const metrics = [...series('heart_rate', 'bpm', (s) => s.heartRate), ...series('steps', 'count', (s) => s.steps)];
    if (metrics.length) out.push({ type: 'intraday', source: SOURCE, log_id: `activity:${utcDay(day)}`, start_time: utcTime(day), end_time: utcTime(day + DAY_MS), metrics });
  }
  return out;
}
