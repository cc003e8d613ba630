/**
 * The catalog's metrics as FHIR R4 Observations: the one mapping table (docs/fhir.md shows it, and
 * a test keeps the two equal). For each metric type: its code (LOINC where a standard code exists,
 * each with its source in libs/fhir/code-sources.tsv; otherwise the metric type in Wellstream's own
 * code system, never a guessed LOINC), its Observation category, and the profile it conforms to
 * (R4 core's vital-signs profiles where one applies).
 *
 * Categories: R4's observation-category codes where they fit (vital-signs, activity, laboratory);
 * that code system has no sleep or nutrition, so those carry a Wellstream category instead.
 */
import { LOINC, OBSERVATION_CATEGORY, WELLSTREAM_CATEGORY, WELLSTREAM_METRIC } from './systems';
import type { Coding } from './fhir-types';
import { UCUM_UNITS, type UcumUnit } from './units';

export interface CategoryCoding {
  system: typeof OBSERVATION_CATEGORY | typeof WELLSTREAM_CATEGORY;
  code: string;
  display: string;
}

export interface FhirMetricMapping {
  metric: string;
  /** The codings of Observation.code; the first is the one the metric is known by. */
  codes: Coding[];
  /** Codings that replace `codes` for one catalog unit (glucose: mass or moles per volume). */
  codesByUnit?: Record<string, Coding[]>;
  category: CategoryCoding;
  profile?: string;
  /** A catalog unit the profile does not take, converted (height in m → cm for bodyheight). */
  convert?: Record<string, { unit: UcumUnit; factor: number }>;
}

const cat = (code: string, display: string): CategoryCoding => ({ system: OBSERVATION_CATEGORY, code, display });
const VITAL = cat('vital-signs', 'Vital Signs');
const ACTIVITY = cat('activity', 'Activity');
const LABORATORY = cat('laboratory', 'Laboratory');
const SLEEP: CategoryCoding = { system: WELLSTREAM_CATEGORY, code: 'sleep', display: 'Sleep' };
const NUTRITION: CategoryCoding = { system: WELLSTREAM_CATEGORY, code: 'nutrition', display: 'Nutrition' };

const loinc = (code: string, display: string): Coding => ({ system: LOINC, code, display });
const own = (metric: string, display: string): Coding => ({ system: WELLSTREAM_METRIC, code: metric, display });
const VS = (name: string) => `http://hl7.org/fhir/StructureDefinition/${name}`;

const row = (metric: string, codes: Coding[], category: CategoryCoding, more: Partial<FhirMetricMapping> = {}): FhirMetricMapping => ({ metric, codes, category, ...more });

/** The blood-pressure panel the two blood-pressure metrics of one record form (R4 `bp` profile). */
export const BLOOD_PRESSURE_PANEL = {
  code: loinc('85354-9', 'Blood pressure panel with all children optional'),
  systolic: loinc('8480-6', 'Systolic blood pressure'),
  diastolic: loinc('8462-4', 'Diastolic blood pressure'),
  profile: VS('bp'),
};

/** CGM sensor readings (HL7 CGM IG 1.0.0, "CGM Sensor Reading (Mass)" and "(Molar)"). */
export const CGM_READING: Record<string, Coding> = {
  'mg/dl': loinc('99504-3', 'Glucose [Mass/volume] in Interstitial fluid'),
  'mmol/l': loinc('105272-9', 'Glucose [Moles/volume] in Interstitial fluid'),
};

export const FHIR_METRICS: FhirMetricMapping[] = [
  // Measurements
  row('body_weight', [loinc('29463-7', 'Body weight')], VITAL, { profile: VS('bodyweight') }),
  row('body_fat', [loinc('41982-0', 'Percentage of body fat Measured')], VITAL),
  row('bmi', [loinc('39156-5', 'Body mass index (BMI) [Ratio]')], VITAL, { profile: VS('bmi') }),
  row('height', [loinc('8302-2', 'Body height')], VITAL, { profile: VS('bodyheight'), convert: { m: { unit: UCUM_UNITS.cm, factor: 100 } } }),
  row('blood_pressure_systolic', [BLOOD_PRESSURE_PANEL.systolic], VITAL, { profile: VS('vitalsigns') }),
  row('blood_pressure_diastolic', [BLOOD_PRESSURE_PANEL.diastolic], VITAL, { profile: VS('vitalsigns') }),
  row('heart_rate', [loinc('8867-4', 'Heart rate')], VITAL, { profile: VS('heartrate') }),
  row('blood_glucose', [loinc('2339-0', 'Glucose [Mass/volume] in Blood')], LABORATORY, {
    codesByUnit: { 'mg/dl': [loinc('2339-0', 'Glucose [Mass/volume] in Blood')], 'mmol/l': [loinc('15074-8', 'Glucose [Moles/volume] in Blood')] },
  }),
  row('post_meal_blood_glucose', [own('post_meal_blood_glucose', 'Blood glucose after a meal')], LABORATORY),
  row('oxygen_saturation', [loinc('2708-6', 'Oxygen saturation in Arterial blood'), loinc('59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry')], VITAL, {
    profile: VS('oxygensat'),
  }),
  row('body_temperature', [loinc('8310-5', 'Body temperature')], VITAL, { profile: VS('bodytemp') }),
  // Nutrition: no LOINC code for a food's or a meal's nutrient amounts that we could source.
  ...(
    [
      ['carbohydrate', 'Carbohydrate'],
      ['cholesterol', 'Cholesterol'],
      ['dietary_fiber', 'Dietary fiber'],
      ['energy_consumed', 'Energy consumed'],
      ['protein', 'Protein'],
      ['saturated_fat', 'Saturated fat'],
      ['sodium', 'Sodium'],
      ['sugars', 'Sugars'],
      ['unsaturated_fat', 'Unsaturated fat'],
      ['water', 'Water intake'],
    ] as const
  ).map(([m, d]) => row(m, [own(m, d)], NUTRITION)),
  // Sleep
  row('awake_count', [own('awake_count', 'Times awake')], SLEEP),
  row('awake_duration', [own('awake_duration', 'Time awake in bed')], SLEEP),
  row('sleep_score', [own('sleep_score', 'Sleep score')], SLEEP),
  row('time_to_fall_asleep', [own('time_to_fall_asleep', 'Time to fall asleep')], SLEEP),
  row('restless_count', [own('restless_count', 'Restless periods')], SLEEP),
  row('in_bed_duration', [own('in_bed_duration', 'Time in bed')], SLEEP),
  row('sleep_duration', [loinc('93832-4', 'Sleep duration')], SLEEP),
  row('light_sleep_duration', [loinc('93830-8', 'Light sleep duration')], SLEEP),
  row('deep_sleep_duration', [loinc('93831-6', 'Deep sleep duration')], SLEEP),
  row('rem_sleep_duration', [loinc('93829-0', 'REM sleep duration')], SLEEP),
  // Summary / activity
  row('active_energy_burned', [own('active_energy_burned', 'Active energy burned')], ACTIVITY),
  row('basal_energy_burned', [own('basal_energy_burned', 'Basal energy burned')], ACTIVITY),
  row('distance', [own('distance', 'Distance')], ACTIVITY),
  row('elevation', [own('elevation', 'Elevation gained')], ACTIVITY),
  row('energy_burned', [loinc('55424-6', 'Calories burned in unspecified time Pedometer')], ACTIVITY),
  row('floors_climbed', [own('floors_climbed', 'Floors climbed')], ACTIVITY),
  row('steps', [loinc('55423-8', 'Number of steps in unspecified time Pedometer')], ACTIVITY),
  row('heart_rate_zone_very_low', [own('heart_rate_zone_very_low', 'Time in heart-rate zone very low')], ACTIVITY),
  row('heart_rate_zone_low', [own('heart_rate_zone_low', 'Time in heart-rate zone low')], ACTIVITY),
  row('heart_rate_zone_medium', [own('heart_rate_zone_medium', 'Time in heart-rate zone medium')], ACTIVITY),
  row('heart_rate_zone_high', [own('heart_rate_zone_high', 'Time in heart-rate zone high')], ACTIVITY),
  // A resting heart rate is a heart rate: the heartrate profile's 8867-4 plus the more specific code.
  row('resting_heart_rate', [loinc('8867-4', 'Heart rate'), loinc('40443-4', 'Heart rate --resting')], VITAL, { profile: VS('heartrate') }),
  // Workout
  row('active_duration', [loinc('55411-3', 'Exercise duration')], ACTIVITY),
  row('avg_heart_rate', [loinc('55425-3', 'Heart rate unspecified time mean by Pedometer')], ACTIVITY),
  row('max_heart_rate', [loinc('55426-1', 'Heart rate unspecified time maximum by Pedometer')], ACTIVITY),
  row('avg_speed', [own('avg_speed', 'Average speed')], ACTIVITY),
  row('avg_cadence', [own('avg_cadence', 'Average cadence')], ACTIVITY),
];

const byMetric = new Map(FHIR_METRICS.map((r) => [r.metric, r]));

export const fhirMapping = (metric: string): FhirMetricMapping | undefined => byMetric.get(metric);

/** The codings and the UCUM quantity of one metric value, with any unit conversion the profile needs. */
export function codedQuantity(metric: string, unit: string, value: number): { mapping: FhirMetricMapping; codes: Coding[]; unit: UcumUnit; value: number } | undefined {
  const mapping = byMetric.get(metric);
  const ucum = UCUM_UNITS[unit];
  if (!mapping || !ucum) return undefined;
  const codes = mapping.codesByUnit?.[unit] ?? mapping.codes;
  const conversion = mapping.convert?.[unit];
  if (conversion) return { mapping, codes, unit: conversion.unit, value: round(value * conversion.factor) };
  return { mapping, codes, unit: ucum, value };
}

/** Conversions must not invent precision (1.8 m is 180 cm, not 180.00000000000003). */
const round = (v: number) => Math.round(v * 1e6) / 1e6;
