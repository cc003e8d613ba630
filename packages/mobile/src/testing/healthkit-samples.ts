/**
 * Builders of HealthKit samples shaped exactly as @kingstinct/react-native-healthkit declares them:
 * the types come from the installed bridge, so a bridge upgrade that changes a shape fails the
 * type check.
 */
import type { CategorySample, Device, QuantitySample, QuantityTypeIdentifier, SourceRevision, WorkoutActivityType, WorkoutSample } from '@kingstinct/react-native-healthkit';

/** HKWorkoutActivityType values (the bridge's enum is a native module's; its numbers are Apple's). */
export const ACTIVITY = { running: 37 as WorkoutActivityType, cycling: 13 as WorkoutActivityType, yoga: 57 as WorkoutActivityType, dance: 77 as WorkoutActivityType };

export const WATCH: Device = { name: 'Apple Watch', manufacturer: 'Apple Inc.', model: 'Watch', hardwareVersion: 'Watch7,1', softwareVersion: '11.0' };
export const APPLE_REVISION: SourceRevision = { source: { name: 'Apple Watch', bundleIdentifier: 'com.apple.health.8D4C3F2A' }, operatingSystemVersion: '11.0', productType: 'Watch7,1' };
export const OURA_REVISION: SourceRevision = { source: { name: 'Oura', bundleIdentifier: 'com.ouraring.oura' }, operatingSystemVersion: '18.1' };

const sampleType = (identifier: string) => ({ identifier, allowsRecalibrationForEstimates: false, isMinimumDurationRestricted: false, isMaximumDurationRestricted: false });

export interface HkOptions {
  uuid: string;
  start: string;
  end?: string;
  zone?: string;
  revision?: SourceRevision;
  userEntered?: boolean;
  food?: string;
}

const metadata = (o: HkOptions) => ({
  ...(o.zone ? { HKMetadataKeyTimeZone: o.zone } : {}),
  ...(o.userEntered ? { HKWasUserEntered: true } : {}),
  ...(o.food ? { HKFoodType: o.food } : {}),
});

export function hkQuantity(quantityType: QuantityTypeIdentifier, quantity: number, unit: string, o: HkOptions): QuantitySample {
  return {
    uuid: o.uuid,
    sourceRevision: o.revision ?? APPLE_REVISION,
    device: WATCH,
    metadata: metadata(o),
    sampleType: sampleType(quantityType),
    startDate: new Date(o.start),
    endDate: new Date(o.end ?? o.start),
    hasUndeterminedDuration: false,
    quantityType,
    quantity,
    unit,
  };
}

/** HKCategoryValueSleepAnalysis: 0 inBed, 1 asleepUnspecified, 2 awake, 3 core, 4 deep, 5 REM. */
export function hkSleep(value: 0 | 1 | 2 | 3 | 4 | 5, o: HkOptions & { end: string }): CategorySample {
  return {
    uuid: o.uuid,
    sourceRevision: o.revision ?? APPLE_REVISION,
    device: WATCH,
    metadata: metadata(o),
    sampleType: sampleType('HKCategoryTypeIdentifierSleepAnalysis'),
    startDate: new Date(o.start),
    endDate: new Date(o.end),
    hasUndeterminedDuration: false,
    categoryType: 'HKCategoryTypeIdentifierSleepAnalysis',
    value,
  };
}

export function hkWorkout(activity: WorkoutActivityType, o: HkOptions & { end: string; kcal?: number; metres?: number }): WorkoutSample {
  const seconds = (Date.parse(o.end) - Date.parse(o.start)) / 1000;
  return {
    uuid: o.uuid,
    sourceRevision: o.revision ?? APPLE_REVISION,
    device: WATCH,
    metadata: metadata(o),
    sampleType: sampleType('HKWorkoutTypeIdentifier'),
    startDate: new Date(o.start),
    endDate: new Date(o.end),
    hasUndeterminedDuration: false,
    workoutActivityType: activity,
    duration: { unit: 's', quantity: seconds },
    ...(o.kcal !== undefined ? { totalEnergyBurned: { unit: 'kcal', quantity: o.kcal } } : {}),
    ...(o.metres !== undefined ? { totalDistance: { unit: 'm', quantity: o.metres } } : {}),
  };
}


