/**
 * HealthKit samples (as @kingstinct/react-native-healthkit returns them) → Wellstream records and
 * bucket parts. The tables below are the whole mapping: a type that is not in them has no catalog
 * metric and is never read. Units are the ones the sync asks the bridge for (`HK_QUERY_UNITS`).
 */
import type { CategorySample, QuantitySample, QuantityTypeIdentifier, WorkoutSample } from '@kingstinct/react-native-healthkit';
import { utc, type Device, type Metric, type WorkoutCategory } from '../records';
import type { Mapped } from './entries';
import { zoneOffsetAt } from './zone';

type Target =
  | { to: 'measurement'; metric: string; unit: string; scale?: number }
  | { to: 'nutrition'; metric: string; unit: string }
  | { to: 'summary'; metric: string; unit: string; intraday?: boolean }
  | { to: 'intraday'; metric: string; unit: string };

/** HealthKit quantity type → what it becomes, with the unit the bridge is asked for. */
export const HK_QUANTITY_MAP: Partial<Record<QuantityTypeIdentifier, Target & { hkUnit: string }>> = {
  HKQuantityTypeIdentifierBodyMass: { to: 'measurement', metric: 'body_weight', unit: 'kg', hkUnit: 'kg' },
  HKQuantityTypeIdentifierBodyFatPercentage: { to: 'measurement', metric: 'body_fat', unit: 'percent', hkUnit: '%', scale: 100 },
  HKQuantityTypeIdentifierBodyMassIndex: { to: 'measurement', metric: 'bmi', unit: 'kg/m2', hkUnit: 'count' },
  HKQuantityTypeIdentifierHeight: { to: 'measurement', metric: 'height', unit: 'm', hkUnit: 'm' },
  HKQuantityTypeIdentifierBloodPressureSystolic: { to: 'measurement', metric: 'blood_pressure_systolic', unit: 'mmHg', hkUnit: 'mmHg' },
  HKQuantityTypeIdentifierBloodPressureDiastolic: { to: 'measurement', metric: 'blood_pressure_diastolic', unit: 'mmHg', hkUnit: 'mmHg' },
  HKQuantityTypeIdentifierBloodGlucose: { to: 'measurement', metric: 'blood_glucose', unit: 'mg/dl', hkUnit: 'mg/dL' },
  HKQuantityTypeIdentifierOxygenSaturation: { to: 'measurement', metric: 'oxygen_saturation', unit: 'percent', hkUnit: '%', scale: 100 },
  HKQuantityTypeIdentifierBodyTemperature: { to: 'measurement', metric: 'body_temperature', unit: 'celsius', hkUnit: 'degC' },
  HKQuantityTypeIdentifierHeartRate: { to: 'intraday', metric: 'heart_rate', unit: 'bpm', hkUnit: 'count/min' },
  HKQuantityTypeIdentifierRestingHeartRate: { to: 'summary', metric: 'resting_heart_rate', unit: 'bpm', hkUnit: 'count/min' },
  HKQuantityTypeIdentifierStepCount: { to: 'summary', metric: 'steps', unit: 'count', hkUnit: 'count', intraday: true },
  HKQuantityTypeIdentifierDistanceWalkingRunning: { to: 'summary', metric: 'distance', unit: 'm', hkUnit: 'm' },
  HKQuantityTypeIdentifierFlightsClimbed: { to: 'summary', metric: 'floors_climbed', unit: 'count', hkUnit: 'count' },
  HKQuantityTypeIdentifierActiveEnergyBurned: { to: 'summary', metric: 'active_energy_burned', unit: 'kcal', hkUnit: 'kcal' },
  HKQuantityTypeIdentifierBasalEnergyBurned: { to: 'summary', metric: 'basal_energy_burned', unit: 'kcal', hkUnit: 'kcal' },
  HKQuantityTypeIdentifierDietaryEnergyConsumed: { to: 'nutrition', metric: 'energy_consumed', unit: 'kcal', hkUnit: 'kcal' },
  HKQuantityTypeIdentifierDietaryCarbohydrates: { to: 'nutrition', metric: 'carbohydrate', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietaryProtein: { to: 'nutrition', metric: 'protein', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietaryFiber: { to: 'nutrition', metric: 'dietary_fiber', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietarySugar: { to: 'nutrition', metric: 'sugars', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietaryFatSaturated: { to: 'nutrition', metric: 'saturated_fat', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietaryFatMonounsaturated: { to: 'nutrition', metric: 'unsaturated_fat', unit: 'g', hkUnit: 'g' },
  HKQuantityTypeIdentifierDietarySodium: { to: 'nutrition', metric: 'sodium', unit: 'mg', hkUnit: 'mg' },
  HKQuantityTypeIdentifierDietaryCholesterol: { to: 'nutrition', metric: 'cholesterol', unit: 'mg', hkUnit: 'mg' },
  HKQuantityTypeIdentifierDietaryWater: { to: 'nutrition', metric: 'water', unit: 'ml', hkUnit: 'mL' },
};

/** HKCategoryValueSleepAnalysis → a stage; inBed and asleepUnspecified count toward the session only. */
const SLEEP_STAGE: Record<number, string> = { 0: 'in_bed', 1: 'asleep', 2: 'awake', 3: 'light', 4: 'deep', 5: 'rem' };

/** HKWorkoutActivityType → workout category (everything else is `other`, with the type kept in `name`). */
const WORKOUT_CATEGORY: Record<number, WorkoutCategory> = {
  37: 'running', 13: 'cycling', 74: 'cycling', 52: 'walking', 24: 'hiking', 46: 'swimming', 35: 'rowing', 50: 'strength', 20: 'strength', 57: 'yoga',
};

const SOURCE = 'apple_health' as const;

interface HkObject {
  uuid: string;
  startDate: Date;
  endDate: Date;
  metadata?: unknown;
  device?: { name?: string; model?: string; manufacturer?: string; localIdentifier?: string };
  sourceRevision: { source: { name: string; bundleIdentifier: string }; productType?: string };
}

/** The offset of the sample's own zone (HKMetadataKeyTimeZone), when it has one. */
export function hkOffset(sample: HkObject): number | undefined {
  const zone = (sample.metadata as Record<string, unknown> | undefined)?.HKMetadataKeyTimeZone;
  return typeof zone === 'string' ? zoneOffsetAt(zone, sample.startDate) : undefined;
}

/** The device, and the writing app (its bundle id), so "not twice" can recognise another company's app. */
export function hkDevice(sample: HkObject): Device {
  const d = sample.device;
  const device: Device = { id: sample.sourceRevision.source.bundleIdentifier, name: d?.name ?? sample.sourceRevision.source.name };
  if (d?.model ?? sample.sourceRevision.productType) device.model = d?.model ?? sample.sourceRevision.productType;
  if (d?.manufacturer) device.manufacturer = d.manufacturer;
  return device;
}

const origin = (sample: HkObject): Metric['origin'] => ((sample.metadata as Record<string, unknown> | undefined)?.HKWasUserEntered ? 'manual' : 'device');

const common = (sample: HkObject) => {
  const offset = hkOffset(sample);
  return {
    source: { type: SOURCE, device: hkDevice(sample) },
    log_id: sample.uuid,
    start_time: utc(sample.startDate),
    end_time: utc(sample.endDate),
    ...(offset === undefined ? {} : { utc_offset: offset }),
  };
};

/** What every part of one sample shares (computed once per sample). */
const partBase = (sample: HkObject) => {
  const offset = hkOffset(sample);
  return { id: sample.uuid, source: SOURCE, start: utc(sample.startDate), end: utc(sample.endDate), ...(offset === undefined ? {} : { offset }), device: hkDevice(sample) };
};

export function mapHkQuantity(sample: QuantitySample): Mapped[] {
  const target = HK_QUANTITY_MAP[sample.quantityType];
  if (!target || sample.unit !== target.hkUnit) return [];
  const value = sample.quantity * ('scale' in target && target.scale ? target.scale : 1);
  const metric: Metric = { type: target.metric, unit: target.unit, value, origin: origin(sample) };
  switch (target.to) {
    case 'measurement':
      return [{ record: { type: 'measurement', ...common(sample), metrics: [metric] } }];
    case 'nutrition': {
      const food = (sample.metadata as Record<string, unknown> | undefined)?.HKFoodType;
      return [{ record: { type: 'nutrition', ...common(sample), ...(typeof food === 'string' ? { name: food.slice(0, 200) } : {}), category: 'food', metrics: [metric] } }];
    }
    case 'intraday':
      return [{ part: Object.assign(partBase(sample), { kind: 'intraday' as const, metric: target.metric, unit: target.unit, value }) }];
    case 'summary': {
      // The summary part takes the shared base itself; only the intraday twin is a copy (a month is ~30,000 step samples).
      const base = partBase(sample);
      const twin = target.intraday ? { ...base, kind: 'intraday' as const, metric: target.metric, unit: target.unit, value, id: `${sample.uuid}#i` } : undefined;
      const parts: Mapped[] = [{ part: Object.assign(base, { kind: 'summary' as const, metric: target.metric, unit: target.unit, value }) }];
      if (twin) parts.push({ part: twin });
      return parts;
    }
  }
}

export function mapHkCategory(sample: CategorySample): Mapped[] {
  if (sample.categoryType !== 'HKCategoryTypeIdentifierSleepAnalysis') return [];
  const stage = SLEEP_STAGE[Number(sample.value)];
  if (!stage) return [];
  return [{ part: { ...partBase(sample), kind: 'sleep', metric: stage, unit: 's', value: (sample.endDate.getTime() - sample.startDate.getTime()) / 1000 } }];
}

const quantityIn = (q: { unit: string; quantity: number } | undefined, unit: string): number | undefined => (q && q.unit === unit ? q.quantity : undefined);

export function mapHkWorkout(sample: WorkoutSample): Mapped[] {
  const metrics: Metric[] = [];
  const seconds = quantityIn(sample.duration, 's') ?? (sample.endDate.getTime() - sample.startDate.getTime()) / 1000;
  metrics.push({ type: 'active_duration', unit: 's', value: seconds, origin: 'device' });
  const kcal = quantityIn(sample.totalEnergyBurned, 'kcal');
  if (kcal !== undefined) metrics.push({ type: 'active_energy_burned', unit: 'kcal', value: kcal, origin: 'device' });
  const metres = quantityIn(sample.totalDistance, 'm');
  if (metres !== undefined) metrics.push({ type: 'distance', unit: 'm', value: metres, origin: 'device' });
  const category = WORKOUT_CATEGORY[Number(sample.workoutActivityType)] ?? 'other';
  return [{ record: { type: 'workout', ...common(sample), category, metrics } }];
}
