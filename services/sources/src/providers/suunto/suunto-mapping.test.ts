/**
 * Suunto's documented examples mapped to records that pass ingestion: the WORKOUT_CREATED workout,
 * the daily activity statistics example, a 24/7 sleep entry and activity samples; wrong shapes are
 * bad_response.
 */
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError } from '../provider.port';
import { activityDayRecords, bpm, mapDailyStatistics, mapSleep, mapWorkout, readActivitySample } from './suunto-mapping';

const kind = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
};

it('maps the webhook page workout example', () => {
  const r = mapWorkout({ workoutKey: '67604889401b942184624cb8', activityId: 3, startTime: 1702729200000, totalTime: 3600, energyConsumption: 500, stepCount: 8500, totalAscent: 120.5, totalDistance: 10000, hrdata: { workoutAvgHR: 145, workoutMaxHR: 175 }, avgSpeed: 2.78, timeOffsetInMinutes: 120 });
  assertIngestible([r]);
  expect(r).toMatchObject({ type: 'workout', log_id: '67604889401b942184624cb8', start_time: '2023-12-16T12:20:00Z', end_time: '2023-12-16T13:20:00Z', utc_offset: 7200, category: 'other' });
  expect(Object.fromEntries(r.metrics!.map((m) => [m.type, m.value]))).toEqual({ energy_burned: 500, avg_heart_rate: 145, max_heart_rate: 175, distance: 10000, elevation: 120.5, steps: 8500, avg_speed: 2.78, active_duration: 3600 });
  expect(kind(() => mapWorkout({ workoutKey: 'k', startTime: 'yesterday' }))).toBe('bad_response');
});

it('maps the daily activity statistics example: steps, energy from joules to kJ, null as no data', () => {
  const stats = [
    { Name: 'energyconsumption', Aggregation: 'sum', Sources: [{ Name: 'suunto-247-x', Samples: [{ TimeISO8601: '2019-02-11T02:00:00.000', Value: null }, { TimeISO8601: '2019-02-12T02:00:00.000', Value: 640580.3985 }] }] },
    { Name: 'stepcount', Aggregation: 'sum', Sources: [{ Name: 'suunto-247-x', Samples: [{ TimeISO8601: '2019-02-11T02:00:00.000', Value: null }, { TimeISO8601: '2019-02-12T02:00:00.000', Value: 4617 }] }] },
  ];
  const records = mapDailyStatistics(stats);
  assertIngestible(records);
  expect(records).toEqual([expect.objectContaining({ type: 'summary', log_id: 'daily_activity:2019-02-12', start_time: '2019-02-12T00:00:00Z', metrics: [expect.objectContaining({ type: 'steps', value: 4617 }), expect.objectContaining({ type: 'energy_burned', unit: 'kJ', value: 640.58 })] })]);
  expect(kind(() => mapDailyStatistics([{ Name: 'stepcount', Sources: 'x' }]))).toBe('bad_response');
});

it('maps a 24/7 sleep entry: bedtime span, stage totals, latency, awake time, quality as percent', () => {
  const r = mapSleep({ timestamp: '2026-09-12T22:58:00.000+02:00', entryData: { SleepId: 1757738520, BedtimeStart: '2026-09-12T22:58:00.000+02:00', BedtimeEnd: '2026-09-13T06:42:00.000+02:00', Duration: 27840, DeepSleepDuration: 5400, LightSleepDuration: 14400, REMSleepDuration: 4800, SleepOnsetLatencyDuration: 600, WakeAfterSleepOnsetDuration: 720, WakeBeforeOffBedDuration: 300, SleepQualityScore: 0.78, HRAvg: 0.87, AvgHRV: 58 } });
  assertIngestible([r]);
  expect(r).toMatchObject({ log_id: 'sleep:1757738520', start_time: '2026-09-12T20:58:00Z', end_time: '2026-09-13T04:42:00Z', utc_offset: 7200, stages: [] });
  expect(Object.fromEntries(r.metrics!.map((m) => [m.type, m.value]))).toEqual({ in_bed_duration: 27840, sleep_duration: 24600, deep_sleep_duration: 5400, light_sleep_duration: 14400, rem_sleep_duration: 4800, time_to_fall_asleep: 600, awake_duration: 1020, sleep_score: 78 });
  expect(kind(() => mapSleep({ timestamp: 'soon', entryData: {} }))).toBe('bad_response');
});

it('maps activity samples to one intraday a UTC day, heart rate from hertz', () => {
  const samples = [
    { timestamp: '2026-09-13T10:00:00.000+02:00', entryData: { HR: 1.1833, StepCount: 340 } },
    { timestamp: '2026-09-13T10:10:00.000+02:00', entryData: { StepCount: 120 } },
    { timestamp: '2026-09-14T01:00:00.000+02:00', entryData: { HR: 0.9 } },
  ].map(readActivitySample);
  const records = activityDayRecords(samples);
  assertIngestible(records);
  expect(records.map((r) => r.log_id)).toEqual(['activity:2026-09-13']);
  expect((records[0] as any).metrics).toEqual([
    expect.objectContaining({ type: 'heart_rate', samples: [{ time: '2026-09-13T08:00:00Z', value: 71 }, { time: '2026-09-13T23:00:00Z', value: 54 }] }),
    expect.objectContaining({ type: 'steps', samples: [{ time: '2026-09-13T08:00:00Z', value: 340 }, { time: '2026-09-13T08:10:00Z', value: 120 }] }),
  ]);
  expect(bpm(145)).toBe(145);
  expect(bpm(0)).toBeUndefined();
});
