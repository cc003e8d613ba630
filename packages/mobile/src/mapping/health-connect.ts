/**
 * Health Connect records (as react-native-health-connect returns them from readRecords/getChanges)
 * → Wellstream records and bucket parts. A record type that is not handled here has no catalog
 * metric and is never read. Records whose data origin is Samsung Health's package are
 * `samsung_health`; every other origin is `health_connect`.
 */
import type { HealthConnectRecordResult, RecordType } from 'react-native-health-connect';
import { utc, type Device, type Metric, type ResourceType, type SourceType, type WellstreamRecord, type WorkoutCategory } from '../records';
import type { Mapped, Part } from './entries';

export const SAMSUNG_HEALTH_PACKAGE = 'com.sec.android.app.shealth';

/** The Health Connect record types the SDK reads, and the Wellstream resource each feeds. */
export const HC_RECORD_TYPES: Partial<Record<RecordType, { resource: ResourceType }>> = {
  Weight: { resource: 'measurement' },
  BodyFat: { resource: 'measurement' },
  Height: { resource: 'measurement' },
  BloodPressure: { resource: 'measurement' },
  BloodGlucose: { resource: 'measurement' },
  OxygenSaturation: { resource: 'measurement' },
  BodyTemperature: { resource: 'measurement' },
  Nutrition: { resource: 'nutrition' },
  Hydration: { resource: 'nutrition' },
  SleepSession: { resource: 'sleep' },
  HeartRate: { resource: 'intraday' },
  Steps: { resource: 'summary' },
  Distance: { resource: 'summary' },
  FloorsClimbed: { resource: 'summary' },
  ElevationGained: { resource: 'summary' },
  ActiveCaloriesBurned: { resource: 'summary' },
  TotalCaloriesBurned: { resource: 'summary' },
  RestingHeartRate: { resource: 'summary' },
  // After HeartRate: a workout's heart rate comes from the samples already read.
  ExerciseSession: { resource: 'workout' },
};

/** SleepSessionRecord stage constants (androidx.health.connect.client.records.SleepSessionRecord). */
const SLEEP_STAGE: Record<number, 'awake' | 'light' | 'deep' | 'rem' | undefined> = { 1: 'awake', 3: 'awake', 4: 'light', 5: 'deep', 6: 'rem', 7: 'awake' };

/** ExerciseSessionRecord exercise type constants → workout category. */
const EXERCISE_CATEGORY: Record<number, WorkoutCategory> = {
  56: 'running', 57: 'running', 8: 'cycling', 9: 'cycling', 79: 'walking', 37: 'hiking', 73: 'swimming', 74: 'swimming', 53: 'rowing', 54: 'rowing', 70: 'strength', 81: 'strength', 83: 'yoga',
};

const DEVICE_TYPE: Record<number, string> = { 2: 'phone', 3: 'scale', 4: 'ring', 5: 'head_mounted', 6: 'fitness_band', 7: 'chest_strap', 8: 'smart_display' };

type Rec = HealthConnectRecordResult;

export const hcSource = (r: Rec): SourceType => (r.metadata?.dataOrigin === SAMSUNG_HEALTH_PACKAGE ? 'samsung_health' : 'health_connect');

/** The device, and the data origin (the writing app's package) as its id. */
export function hcDevice(r: Rec): Device {
  const d = r.metadata?.device;
  const device: Device = {};
  if (r.metadata?.dataOrigin) device.id = r.metadata.dataOrigin;
  if (d?.model) device.model = d.model;
  if (d?.manufacturer) device.manufacturer = d.manufacturer;
  if (d?.type !== undefined && DEVICE_TYPE[d.type]) device.type = DEVICE_TYPE[d.type];
  return device;
}

/** The record's own offset: zoneOffset (instantaneous) or startZoneOffset (interval), when present. */
export function hcOffset(r: Rec): number | undefined {
  const z = ('zoneOffset' in r ? r.zoneOffset : undefined) ?? (r as { startZoneOffset?: { totalSeconds: number } }).startZoneOffset;
  return z ? z.totalSeconds : undefined;
}

const times = (r: Rec) => ('time' in r ? { start: r.time, end: r.time } : { start: r.startTime, end: r.endTime });
const origin = (r: Rec): Metric['origin'] => (r.metadata?.recordingMethod === 3 ? 'manual' : r.metadata?.recordingMethod ? 'device' : 'unknown');

function common(r: Rec) {
  const { start, end } = times(r);
  const offset = hcOffset(r);
  return {
    source: { type: hcSource(r), device: hcDevice(r) },
    log_id: r.metadata?.id ?? '',
    start_time: utc(start),
    end_time: utc(end),
    ...(offset === undefined ? {} : { utc_offset: offset }),
  };
}

const part = (r: Rec, p: Pick<Part, 'kind' | 'metric' | 'unit' | 'value'> & Partial<Pick<Part, 'id' | 'start' | 'end'>>): Mapped => {
  const { start, end } = times(r);
  return { part: { id: r.metadata?.id ?? '', source: hcSource(r), start: utc(start), end: utc(end), offset: hcOffset(r), device: hcDevice(r), ...p } };
};

const measurement = (r: Rec, metrics: Metric[]): Mapped[] => [{ record: { type: 'measurement', ...common(r), metrics } }];
const m = (r: Rec, type: string, unit: string, value: number): Metric => ({ type, unit, value, origin: origin(r) });

export function mapHcRecord(r: Rec): Mapped[] {
  if (!r.metadata?.id) return [];
  switch (r.recordType) {
    case 'Weight':
      return measurement(r, [m(r, 'body_weight', 'kg', r.weight.inKilograms)]);
    case 'BodyFat':
      return measurement(r, [m(r, 'body_fat', 'percent', r.percentage)]);
    case 'Height':
      return measurement(r, [m(r, 'height', 'm', r.height.inMeters)]);
    case 'BloodPressure':
      return measurement(r, [m(r, 'blood_pressure_systolic', 'mmHg', r.systolic.inMillimetersOfMercury), m(r, 'blood_pressure_diastolic', 'mmHg', r.diastolic.inMillimetersOfMercury)]);
    case 'BloodGlucose':
      return measurement(r, [m(r, 'blood_glucose', 'mg/dl', r.level.inMilligramsPerDeciliter)]);
    case 'OxygenSaturation':
      return measurement(r, [m(r, 'oxygen_saturation', 'percent', r.percentage)]);
    case 'BodyTemperature':
      return measurement(r, [m(r, 'body_temperature', 'celsius', r.temperature.inCelsius)]);
    case 'Hydration':
      return [{ record: { type: 'nutrition', ...common(r), category: 'other', metrics: [m(r, 'water', 'ml', r.volume.inMilliliters)] } }];
    case 'Nutrition':
      return [{ record: nutrition(r) }];
    case 'SleepSession':
      return [{ record: sleep(r) }];
    case 'ExerciseSession':
      return [{ record: { type: 'workout', ...common(r), category: EXERCISE_CATEGORY[r.exerciseType] ?? 'other', ...(r.title ? { name: r.title.slice(0, 200) } : {}), metrics: [m(r, 'active_duration', 's', (Date.parse(r.endTime) - Date.parse(r.startTime)) / 1000)] } }];
    case 'HeartRate':
      return r.samples.map((s, i) => part(r, { id: `${r.metadata?.id}#${i}`, kind: 'intraday', metric: 'heart_rate', unit: 'bpm', value: s.beatsPerMinute, start: utc(s.time), end: utc(s.time) }));
    case 'Steps':
      return [part(r, { kind: 'summary', metric: 'steps', unit: 'count', value: r.count }), part(r, { id: `${r.metadata?.id}#i`, kind: 'intraday', metric: 'steps', unit: 'count', value: r.count })];
    case 'Distance':
      return [part(r, { kind: 'summary', metric: 'distance', unit: 'm', value: r.distance.inMeters })];
    case 'FloorsClimbed':
      return [part(r, { kind: 'summary', metric: 'floors_climbed', unit: 'count', value: r.floors })];
    case 'ElevationGained':
      return [part(r, { kind: 'summary', metric: 'elevation', unit: 'm', value: r.elevation.inMeters })];
    case 'ActiveCaloriesBurned':
      return [part(r, { kind: 'summary', metric: 'active_energy_burned', unit: 'kcal', value: r.energy.inKilocalories })];
    case 'TotalCaloriesBurned':
      return [part(r, { kind: 'summary', metric: 'energy_burned', unit: 'kcal', value: r.energy.inKilocalories })];
    case 'RestingHeartRate':
      return [part(r, { kind: 'summary', metric: 'resting_heart_rate', unit: 'bpm', value: r.beatsPerMinute })];
    default:
      return [];
  }
}

function nutrition(r: Extract<Rec, { recordType: 'Nutrition' }>): WellstreamRecord {
  const metrics: Metric[] = [];
  const add = (type: string, unit: string, v: number | undefined) => v !== undefined && metrics.push(m(r, type, unit, v));
  add('energy_consumed', 'kcal', r.energy?.inKilocalories);
  add('carbohydrate', 'g', r.totalCarbohydrate?.inGrams);
  add('protein', 'g', r.protein?.inGrams);
  add('dietary_fiber', 'g', r.dietaryFiber?.inGrams);
  add('sugars', 'g', r.sugar?.inGrams);
  add('saturated_fat', 'g', r.saturatedFat?.inGrams);
  add('unsaturated_fat', 'g', r.unsaturatedFat?.inGrams);
  add('sodium', 'mg', r.sodium?.inMilligrams);
  add('cholesterol', 'mg', r.cholesterol?.inMilligrams);
  return { type: 'nutrition', ...common(r), ...(r.name ? { name: r.name.slice(0, 200) } : {}), category: r.mealType ? 'meal' : 'food', metrics };
}

function sleep(r: Extract<Rec, { recordType: 'SleepSession' }>): WellstreamRecord {
  const stages = (r.stages ?? []).flatMap((s) => {
    const stage = SLEEP_STAGE[s.stage];
    return stage ? [{ stage, start_time: utc(s.startTime), end_time: utc(s.endTime) }] : [];
  });
  return { type: 'sleep', ...common(r), stages, metrics: sleepMetrics(r.startTime, r.endTime, stages) };
}

/** Durations per stage, asleep time and time in bed, from a night's stages. */
export function sleepMetrics(start: string, end: string, stages: { stage: string; start_time: string; end_time: string }[]): Metric[] {
  const total: Record<string, number> = {};
  for (const s of stages) total[s.stage] = (total[s.stage] ?? 0) + (Date.parse(s.end_time) - Date.parse(s.start_time)) / 1000;
  const inBed = (Date.parse(end) - Date.parse(start)) / 1000;
  const metrics: Metric[] = [{ type: 'in_bed_duration', unit: 's', value: inBed, origin: 'device' }];
  const asleep = (total.light ?? 0) + (total.deep ?? 0) + (total.rem ?? 0);
  if (stages.length) metrics.push({ type: 'sleep_duration', unit: 's', value: asleep, origin: 'device' });
  const named: Record<string, string> = { light: 'light_sleep_duration', deep: 'deep_sleep_duration', rem: 'rem_sleep_duration', awake: 'awake_duration' };
  for (const [stage, type] of Object.entries(named)) if (total[stage] !== undefined) metrics.push({ type, unit: 's', value: total[stage], origin: 'device' });
  return metrics;
}
