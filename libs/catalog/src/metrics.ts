/**
 * The metric catalog: every metric type the platform accepts, its allowed units (first = standard)
 * and which resource types carry it. Ingestion, rules and docs all read this one list.
 */
import type { ResourceType } from './resources';

export interface MetricDefinition {
  type: string;
  units: string[];
  resources: ResourceType[];
  description: string;
}

const m = (type: string, units: string[], resources: ResourceType[], description: string): MetricDefinition => ({ type, units, resources, description });

const ACTIVITY: ResourceType[] = ['summary', 'workout', 'intraday'];

export const METRICS: MetricDefinition[] = [
  // Measurements
  m('body_weight', ['kg', 'lb'], ['measurement'], 'Body weight'),
  m('body_fat', ['percent'], ['measurement'], 'Body fat percentage'),
  m('bmi', ['kg/m2'], ['measurement'], 'Body mass index'),
  m('height', ['m', 'cm'], ['measurement'], 'Body height'),
  m('blood_pressure_systolic', ['mmHg'], ['measurement'], 'Systolic blood pressure'),
  m('blood_pressure_diastolic', ['mmHg'], ['measurement'], 'Diastolic blood pressure'),
  m('heart_rate', ['bpm'], ['measurement', 'intraday', 'workout'], 'Heart rate'),
  m('blood_glucose', ['mg/dl', 'mmol/l'], ['measurement', 'cgm', 'intraday'], 'Blood glucose'),
  m('post_meal_blood_glucose', ['mg/dl', 'mmol/l'], ['measurement'], 'Blood glucose after a meal'),
  m('oxygen_saturation', ['percent'], ['measurement', 'intraday', 'sleep'], 'Blood oxygen saturation (SpO2)'),
  m('body_temperature', ['celsius', 'fahrenheit'], ['measurement'], 'Body temperature'),
  // Nutrition
  m('carbohydrate', ['g'], ['nutrition'], 'Carbohydrate'),
  m('cholesterol', ['mg'], ['nutrition'], 'Cholesterol'),
  m('dietary_fiber', ['g'], ['nutrition'], 'Dietary fiber'),
  m('energy_consumed', ['kcal', 'kJ'], ['nutrition'], 'Energy consumed'),
  m('protein', ['g'], ['nutrition'], 'Protein'),
  m('saturated_fat', ['g'], ['nutrition'], 'Saturated fat'),
  m('sodium', ['mg'], ['nutrition'], 'Sodium'),
  m('sugars', ['g'], ['nutrition'], 'Sugars'),
  m('unsaturated_fat', ['g'], ['nutrition'], 'Unsaturated fat'),
  m('water', ['ml', 'l'], ['nutrition'], 'Water intake'),
  // Sleep
  m('awake_count', ['count'], ['sleep'], 'Times awake'),
  m('awake_duration', ['s'], ['sleep'], 'Time awake in bed'),
  m('sleep_score', ['percent'], ['sleep'], 'Sleep score'),
  m('time_to_fall_asleep', ['s'], ['sleep'], 'Time to fall asleep'),
  m('restless_count', ['count'], ['sleep'], 'Restless periods'),
  m('in_bed_duration', ['s'], ['sleep'], 'Time in bed'),
  m('sleep_duration', ['s'], ['sleep'], 'Time asleep'),
  m('light_sleep_duration', ['s'], ['sleep'], 'Light sleep'),
  m('deep_sleep_duration', ['s'], ['sleep'], 'Deep sleep'),
  m('rem_sleep_duration', ['s'], ['sleep'], 'REM sleep'),
  // Summary / activity
  m('active_energy_burned', ['kcal', 'kJ'], ACTIVITY, 'Active energy burned'),
  m('basal_energy_burned', ['kcal', 'kJ'], ['summary'], 'Basal energy burned'),
  m('distance', ['m', 'km'], ACTIVITY, 'Distance'),
  m('elevation', ['m'], ACTIVITY, 'Elevation gained'),
  m('energy_burned', ['kcal', 'kJ'], ACTIVITY, 'Total energy burned'),
  m('floors_climbed', ['count'], ['summary', 'intraday'], 'Floors climbed'),
  m('steps', ['count'], ACTIVITY, 'Steps'),
  m('heart_rate_zone_very_low', ['s'], ['summary', 'workout'], 'Time in heart-rate zone very low'),
  m('heart_rate_zone_low', ['s'], ['summary', 'workout'], 'Time in heart-rate zone low'),
  m('heart_rate_zone_medium', ['s'], ['summary', 'workout'], 'Time in heart-rate zone medium'),
  m('heart_rate_zone_high', ['s'], ['summary', 'workout'], 'Time in heart-rate zone high'),
  m('resting_heart_rate', ['bpm'], ['summary'], 'Resting heart rate'),
  // Workout
  m('active_duration', ['s'], ['workout'], 'Active time of a workout'),
  m('avg_heart_rate', ['bpm'], ['workout'], 'Average heart rate'),
  m('max_heart_rate', ['bpm'], ['workout'], 'Maximum heart rate'),
  m('avg_speed', ['m/s', 'km/h'], ['workout'], 'Average speed'),
  m('avg_cadence', ['spm', 'rpm'], ['workout'], 'Average cadence'),
];

const byType = new Map(METRICS.map((d) => [d.type, d]));

export const METRIC_TYPES = METRICS.map((d) => d.type);
export const metricDefinition = (type: string): MetricDefinition | undefined => byType.get(type);
export const isValidMetricUnit = (type: string, unit: string): boolean => byType.get(type)?.units.includes(unit) ?? false;
export const METRIC_ORIGINS = ['device', 'manual', 'unknown'] as const;
export type MetricOrigin = (typeof METRIC_ORIGINS)[number];
