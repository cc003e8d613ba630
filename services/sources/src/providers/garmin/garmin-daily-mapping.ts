/**
 * Daily summaries and epochs (Health API "Daily Summaries", "Epoch Summaries"). A daily summary
 * is the user's day so far and is sent again as it grows: its key is the day (`calendarDate`), so
 * each update replaces the record. Its `timeOffsetHeartRateSamples` (offset in seconds → bpm, every
 * 15 s) becomes that day's intraday heart-rate series, one value a minute (the minute's mean).
 * An epoch is a 15-minute slice per activity type; one "of less than 900 s" is a slice synced
 * mid-way and is replaced by the full one, so its key is its start and activity type, not its
 * summaryId.
 */
import type { IngestRecordOf } from '../provider.port';
import { Json, optionalNumber, optionalObject, optionalString } from './garmin-json';
import { durationOf, metric, offsetOf, perMinute, requireDate, requireSeconds, SOURCE, utcTime } from './garmin-records';

const DAY_S = 86_400;

export function mapDaily(d: Json): IngestRecordOf<'summary'> {
  const what = 'dailies';
  const date = requireDate(d, what);
  const start = requireSeconds(d, 'startTimeInSeconds', what);
  const duration = durationOf(d, 'durationInSeconds', what, DAY_S + 3600);
  const num = (k: string) => optionalNumber(d, k, what);
  return {
    type: 'summary',
    source: SOURCE,
    log_id: `dailies:${date}`,
    start_time: utcTime(start * 1000),
    end_time: utcTime((start + duration) * 1000),
    utc_offset: offsetOf(d, 'startTimeOffsetInSeconds', what),
    category: 'daily',
    metrics: [
      ...metric('steps', 'count', num('steps')),
      ...metric('distance', 'm', num('distanceInMeters')),
      // "activeKilocalories: activity only, excludes BMR"; bmrKilocalories is the basal part.
      ...metric('active_energy_burned', 'kcal', num('activeKilocalories')),
      ...metric('basal_energy_burned', 'kcal', num('bmrKilocalories')),
      ...metric('floors_climbed', 'count', num('floorsClimbed')),
      ...metric('resting_heart_rate', 'bpm', num('restingHeartRateInBeatsPerMinute')),
    ],
  };
}

/** The day's heart rate, per minute; undefined for a day without samples. */
export function mapDailyHeartRate(d: Json): IngestRecordOf<'intraday'> | undefined {
  const what = 'dailies';
  const date = requireDate(d, what);
  const start = requireSeconds(d, 'startTimeInSeconds', what);
  const duration = durationOf(d, 'durationInSeconds', what, DAY_S + 3600);
  const samples = perMinute(optionalObject(d, 'timeOffsetHeartRateSamples', what), start, `${what}.timeOffsetHeartRateSamples`, (v) => v > 0 && v < 300);
  if (samples.length === 0) return undefined;
  return {
    type: 'intraday',
    source: SOURCE,
    log_id: `heart_rate:${date}`,
    start_time: utcTime(start * 1000),
    end_time: utcTime((start + duration) * 1000),
    utc_offset: offsetOf(d, 'startTimeOffsetInSeconds', what),
    metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT1M', samples }],
  };
}

/** An epoch's steps, distance and active energy as one 15-minute sample each; undefined when it has none. */
export function mapEpoch(e: Json): IngestRecordOf<'intraday'> | undefined {
  const what = 'epochs';
  const start = requireSeconds(e, 'startTimeInSeconds', what);
  const duration = durationOf(e, 'durationInSeconds', what, 900);
  const activity = (optionalString(e, 'activityType', what) ?? 'UNKNOWN').replace(/[^A-Z0-9_]/gi, '').slice(0, 40) || 'UNKNOWN';
  const time = utcTime(start * 1000);
  const series = (type: 'steps' | 'distance' | 'active_energy_burned', unit: string, value: number | undefined) =>
    value === undefined || value < 0 ? [] : [{ type, unit, origin: 'device' as const, granularity: 'PT15M' as const, samples: [{ time, value }] }];
  const metrics = [
    ...series('steps', 'count', optionalNumber(e, 'steps', what)),
    ...series('distance', 'm', optionalNumber(e, 'distanceInMeters', what)),
    ...series('active_energy_burned', 'kcal', optionalNumber(e, 'activeKilocalories', what)),
  ];
  if (metrics.length === 0) return undefined;
  return {
    type: 'intraday',
    source: SOURCE,
    log_id: `epochs:${start}:${activity}`,
    start_time: time,
    end_time: utcTime((start + Math.max(duration, 1)) * 1000),
    utc_offset: offsetOf(e, 'startTimeOffsetInSeconds', what),
    metrics,
  };
}
