/**
 * Activities, body composition and pulse ox (Activity API "Activity Summaries"; Health API "Body
 * Composition", "Pulse Ox"). Each has its own `summaryId`, the record's key. The Health API's
 * respiration, HRV, stress details, user metrics, blood pressure and skin temperature have no
 * metric in the catalog (respiration rate, HRV, stress, VO2 max) or are not read yet: README.md.
 */
import type { IngestRecordOf, WorkoutCategory } from '../provider.port';
import { badResponse, Json, optionalNumber, optionalObject, optionalString, requireString } from './garmin-json';
import { durationOf, metric, offsetOf, perMinute, requireSeconds, SOURCE, utcTime } from './garmin-records';

const id = (o: Json, what: string) => {
  const v = requireString(o, 'summaryId', what);
  if (v.length > 120) throw badResponse(`${what}.summaryId is too long`);
  return v;
};

/** Garmin's activityType (RUNNING, TRAIL_RUNNING, CYCLING, LAP_SWIMMING, …) by its words. */
export function categoryOf(activityType: string | undefined): WorkoutCategory {
  const t = (activityType ?? '').toUpperCase();
  if (/RUN/.test(t)) return 'running';
  if (/CYCLING|BIKING|BIKE/.test(t)) return 'cycling';
  if (/SWIM/.test(t)) return 'swimming';
  if (/HIKING/.test(t)) return 'hiking';
  if (/WALK/.test(t)) return 'walking';
  if (/ROWING/.test(t)) return 'rowing';
  if (/STRENGTH/.test(t)) return 'strength';
  if (/YOGA/.test(t)) return 'yoga';
  return 'other';
}

export function mapActivity(a: Json): IngestRecordOf<'workout'> {
  const what = 'activities';
  const start = requireSeconds(a, 'startTimeInSeconds', what);
  const duration = durationOf(a, 'durationInSeconds', what, 7 * 86_400);
  const num = (k: string) => optionalNumber(a, k, what);
  const origin = a.manual === true ? 'manual' : 'device';
  const name = optionalString(a, 'activityName', what);
  return {
    type: 'workout',
    source: SOURCE,
    log_id: `activities:${id(a, what)}`,
    start_time: utcTime(start * 1000),
    end_time: utcTime((start + duration) * 1000),
    utc_offset: offsetOf(a, 'startTimeOffsetInSeconds', what),
    category: categoryOf(optionalString(a, 'activityType', what)),
    ...(name ? { name: name.slice(0, 200) } : {}),
    metrics: [
      ...metric('distance', 'm', num('distanceInMeters'), origin),
      ...metric('active_energy_burned', 'kcal', num('activeKilocalories'), origin),
      ...metric('steps', 'count', num('steps'), origin),
      ...metric('elevation', 'm', num('totalElevationGainInMeters'), origin),
      ...metric('avg_heart_rate', 'bpm', num('averageHeartRateInBeatsPerMinute'), origin),
      ...metric('max_heart_rate', 'bpm', num('maxHeartRateInBeatsPerMinute'), origin),
      ...metric('avg_speed', 'm/s', num('averageSpeedInMetersPerSecond'), origin),
    ],
  };
}

/** weightInGrams → kg; bodyFatInPercent; bodyMassIndex. undefined when none of them is given. */
export function mapBodyComp(b: Json): IngestRecordOf<'measurement'> | undefined {
  const what = 'bodyComps';
  const at = requireSeconds(b, 'measurementTimeInSeconds', what);
  const num = (k: string) => optionalNumber(b, k, what);
  const grams = num('weightInGrams');
  const metrics = [
    ...metric('body_weight', 'kg', grams === undefined ? undefined : Math.round(grams) / 1000),
    ...metric('body_fat', 'percent', num('bodyFatInPercent')),
    ...metric('bmi', 'kg/m2', num('bodyMassIndex')),
  ];
  if (metrics.length === 0) return undefined;
  return {
    type: 'measurement',
    source: SOURCE,
    log_id: `bodyComps:${id(b, what)}`,
    start_time: utcTime(at * 1000),
    end_time: utcTime(at * 1000),
    utc_offset: offsetOf(b, 'measurementTimeOffsetInSeconds', what),
    metrics,
  };
}

/** timeOffsetSpo2Values (offset → %) as a per-minute oxygen_saturation series; undefined without values. */
export function mapPulseOx(p: Json): IngestRecordOf<'intraday'> | undefined {
  const what = 'pulseox';
  const start = requireSeconds(p, 'startTimeInSeconds', what);
  const duration = durationOf(p, 'durationInSeconds', what, 86_400 + 3600);
  const samples = perMinute(optionalObject(p, 'timeOffsetSpo2Values', what), start, `${what}.timeOffsetSpo2Values`, (v) => v > 0 && v <= 100);
  if (samples.length === 0) return undefined;
  return {
    type: 'intraday',
    source: SOURCE,
    log_id: `pulseox:${id(p, what)}`,
    start_time: utcTime(start * 1000),
    end_time: utcTime((start + Math.max(duration, 60)) * 1000),
    utc_offset: offsetOf(p, 'startTimeOffsetInSeconds', what),
    metrics: [{ type: 'oxygen_saturation', unit: 'percent', origin: 'device', granularity: 'PT1M', samples }],
  };
}
