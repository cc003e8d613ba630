/**
 * Oura documents → records, with payloads written from Oura's API v2 schemas and their documented
 * examples (sleep_phase_5_min "444423323441114", the sample document id of the code samples).
 */
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError } from '../provider.port';
import { dayRecords } from './oura-heartrate';
import { mapDailyActivity, mapSleep, mapWorkout, sleepStages, workoutCategory } from './oura-mapping';

const dailyActivity = {
  id: '2-5daccc095220cc5493a4e9c2b681ca941e',
  meta: { updated_at: '2021-11-02T04:10:00+00:00', version: 1 },
  class_5_min: '001233334555524001',
  score: 82,
  active_calories: 1222,
  average_met_minutes: 1.90625,
  contributors: { meet_daily_targets: 43, move_every_hour: 100, recovery_time: 100, stay_active: 98, training_frequency: 71, training_volume: 98 },
  equivalent_walking_distance: 20122,
  high_activity_met_minutes: 444,
  high_activity_time: 3000,
  inactivity_alerts: 0,
  low_activity_met_minutes: 117,
  low_activity_time: 10020,
  medium_activity_met_minutes: 391,
  medium_activity_time: 6060,
  met: { interval: 60, items: [0.1, 1.2, 0.9], timestamp: '2021-11-01T04:00:00.000-07:00' },
  meters_to_target: -16200,
  non_wear_time: 27480,
  resting_time: 18840,
  sedentary_met_minutes: 10,
  sedentary_time: 21000,
  steps: 18430,
  target_calories: 350,
  target_meters: 7000,
  total_calories: 3446,
  day: '2021-11-01',
  timestamp: '2021-11-01T04:00:00-07:00',
};

const sleep = {
  id: '8f9a5221-639e-4a85-81cb-4065ef23f979',
  average_breath: 12.625,
  average_heart_rate: 4.25,
  average_hrv: 117,
  awake_time: 4800,
  bedtime_end: '2022-07-12T09:25:14-07:00',
  bedtime_start: '2022-07-12T01:05:14-07:00',
  day: '2022-07-12',
  deep_sleep_duration: 4170,
  efficiency: 84,
  heart_rate: { interval: 300, items: [null, 50, 46], timestamp: '2022-07-12T01:05:14.000-07:00' },
  hrv: { interval: 300, items: [null, -102, -122], timestamp: '2022-07-12T01:05:14.000-07:00' },
  latency: 540,
  light_sleep_duration: 18750,
  low_battery_alert: false,
  lowest_heart_rate: 48,
  movement_30_sec: '1143222134',
  period: 0,
  readiness: null,
  readiness_score_delta: 0,
  rem_sleep_duration: 2280,
  restless_periods: 415,
  sleep_phase_5_min: '444423323441114',
  sleep_score_delta: 0,
  sleep_algorithm_version: 'v2',
  time_in_bed: 30000,
  total_sleep_duration: null,
  type: 'long_sleep',
};

const workout = {
  id: 'wk-7c1f',
  activity: 'cycling',
  calories: 300,
  day: '2021-11-01',
  distance: 13500.5,
  end_datetime: '2021-11-01T19:10:00+01:00',
  intensity: 'moderate',
  label: null,
  source: 'manual',
  start_datetime: '2021-11-01T18:00:00+01:00',
};

describe('Oura mapping', () => {
  it('maps daily_activity to a summary of the local day, offset from its timestamp', () => {
    const r = mapDailyActivity(dailyActivity);
    expect(r).toMatchObject({ type: 'summary', log_id: dailyActivity.id, start_time: '2021-11-01T07:00:00Z', end_time: '2021-11-02T07:00:00Z', utc_offset: -25200 });
    expect(r.metrics).toEqual([
      { type: 'steps', unit: 'count', value: 18430, origin: 'device' },
      { type: 'active_energy_burned', unit: 'kcal', value: 1222, origin: 'device' },
      { type: 'energy_burned', unit: 'kcal', value: 3446, origin: 'device' },
    ]);
    assertIngestible([r]);
  });

  it('maps sleep with stages from sleep_phase_5_min and leaves null values out', () => {
    const r = mapSleep(sleep);
    expect(r).toMatchObject({ type: 'sleep', log_id: sleep.id, start_time: '2022-07-12T08:05:14Z', end_time: '2022-07-12T16:25:14Z', utc_offset: -25200 });
    const types = r.metrics!.map((m) => m.type);
    expect(types).not.toContain('sleep_duration'); // total_sleep_duration was null: no data, not zero
    expect(r.metrics).toContainEqual({ type: 'time_to_fall_asleep', unit: 's', value: 540, origin: 'device' });
    expect((r.stages as { stage: string }[]).map((s) => s.stage)).toEqual(['awake', 'light', 'rem', 'light', 'rem', 'awake', 'deep', 'awake']);
    assertIngestible([r]);
  });

  it('turns deleted and rejected (rest) sleeps into deletions of the same log_id', () => {
    for (const type of ['deleted', 'rest']) expect(mapSleep({ ...sleep, type })).toMatchObject({ log_id: sleep.id, deleted: true });
    assertIngestible([mapSleep({ ...sleep, type: 'deleted' })]);
  });

  it('clips stages to bedtime_end', () => {
    const stages = sleepStages('1122', 0, 12 * 60_000);
    expect(stages).toEqual([
      { stage: 'deep', start_time: '1970-01-01T00:00:00Z', end_time: '1970-01-01T00:10:00Z' },
      { stage: 'light', start_time: '1970-01-01T00:10:00Z', end_time: '1970-01-01T00:12:00Z' },
    ]);
  });

  it('maps a workout; a manual one has manual metrics', () => {
    const r = mapWorkout(workout);
    expect(r).toMatchObject({ type: 'workout', category: 'cycling', name: 'cycling', start_time: '2021-11-01T17:00:00Z', utc_offset: 3600 });
    expect(r.metrics).toEqual([
      { type: 'energy_burned', unit: 'kcal', value: 300, origin: 'manual' },
      { type: 'distance', unit: 'm', value: 13500.5, origin: 'manual' },
    ]);
    expect(workoutCategory('strengthTraining')).toBe('strength');
    expect(workoutCategory('dancing')).toBe('other');
    assertIngestible([r, mapWorkout({ ...workout, activity: 'strengthTraining', label: 'Legs', source: 'autodetected' })]);
  });

  it('builds one heart-rate record per UTC day', () => {
    const t0 = Date.parse('2024-03-01T23:50:00Z');
    const rows = [0, 5, 10, 15].map((m) => ({ at: t0 + m * 60_000, bpm: 60 + m }));
    const records = dayRecords(rows);
    expect(records.map((r) => r.log_id)).toEqual(['heartrate:2024-03-01', 'heartrate:2024-03-02']);
    expect(records[0]).toMatchObject({ start_time: '2024-03-01T00:00:00Z', end_time: '2024-03-02T00:00:00Z' });
    expect(records[0].utc_offset).toBeUndefined();
    assertIngestible(records);
  });

  it('answers bad_response, never a TypeError, on wrong-shaped documents', () => {
    const broken = [{}, { ...sleep, bedtime_start: 42 }, { ...sleep, bedtime_end: 'yesterday' }, { ...sleep, latency: '540' }];
    for (const doc of broken) {
      try {
        mapSleep(doc);
        throw new Error('expected a failure');
      } catch (e) {
        expect(isProviderError(e) && e.kind).toBe('bad_response');
      }
    }
    expect(() => mapDailyActivity({ ...dailyActivity, day: '01/11/2021' })).toThrow(/day/);
  });
});
