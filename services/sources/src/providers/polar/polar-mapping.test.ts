/**
 * Polar's documented example payloads (AccessLink v3 reference) through the mappings: every record
 * must pass ingestion exactly as the records service validates it.
 */
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError } from '../provider.port';
import { mapActivity } from './polar-activities';
import { mapExercise, workoutCategory } from './polar-exercises';
import { mapHeartRateDay } from './polar-heartrate';
import { entryPath, mapPhysicalInfo } from './polar-physical';
import { mapSleep, sleepStages } from './polar-sleep';
import { durationSeconds, localToInstant } from './polar-time';

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
};

// "List exercises" 200 example (samples, route and zones left out).
const EXERCISE = {
  id: '2AC312F', upload_time: '2008-10-13T10:40:02.000Z', polar_user: 'https://www.polaraccesslink/v3/users/1', device: 'Polar M400', device_id: '1111AAAA',
  start_time: '2008-10-13T10:40:02', start_time_utc_offset: 180, duration: 'PT2H44M', calories: 530, distance: 1600, heart_rate: { average: 129, maximum: 147 },
  training_load: 143.22, sport: 'OTHER', has_route: true, club_id: 999, club_name: 'Polar Club', detailed_sport_info: 'WATERSPORTS_WATERSKI', fat_percentage: 60,
  carbohydrate_percentage: 38, protein_percentage: 2, 'running-index': 51,
};

// "List nights" 200 example.
const NIGHT = {
  polar_user: 'https://www.polaraccesslink/v3/users/1', date: '2020-01-01', sleep_start_time: '2020-01-01T00:39:07+03:00', sleep_end_time: '2020-01-01T09:19:37+03:00',
  device_id: '1111AAAA', continuity: 2.1, continuity_class: 2, light_sleep: 1000, deep_sleep: 1000, rem_sleep: 1000, unrecognized_sleep_stage: 1000, sleep_score: 80,
  total_interruption_duration: 1000, sleep_charge: 3, sleep_goal: 28800, sleep_rating: 3, short_interruption_duration: 500, long_interruption_duration: 300, sleep_cycles: 6,
  group_duration_score: 100, group_solidity_score: 75, group_regeneration_score: 54.2, hypnogram: { '00:39': 2, '00:50': 3, '01:23': 6 }, heart_rate_samples: { '00:41': 76, '00:46': 77, '00:51': 76 },
};

// "List activities for given date range" 200 example (samples left out).
const ACTIVITY = {
  start_time: '2025-08-13T08:15:30', end_time: '2025-08-13T23:59:59', active_duration: 'PT3H11M', inactive_duration: 'PT18H23M30S', daily_activity: 89.1, calories: 2500,
  active_calories: 1500, steps: 8823, inactivity_alert_count: 1, distance_from_steps: 4590.53,
};

// "Get Continuous Heart rate samples" 200 example.
const CHR = { polar_user: 'https://polaraccesslink.com/v3/users/627139', date: '2022-09-12', heart_rate_samples: [{ heart_rate: 63, sample_time: '00:02:08' }, { heart_rate: 62, sample_time: '00:07:08' }] };

// "Get physical info" 200 example.
const PHYSICAL = {
  id: 123, 'transaction-id': 179879, created: '2016-04-27T20:11:33.000Z', 'polar-user': 'https://www.polaraccesslink/v3/users/1', weight: 80, height: 180,
  'maximum-heart-rate': 160, 'resting-heart-rate': 60, 'aerobic-threshold': 123, 'anaerobic-threshold': 123, 'vo2-max': 12, 'weight-source': 'SOURCE_MEASURED',
};

describe('Polar mappings', () => {
  it('maps an exercise: local start + offset, duration, calories, distance, heart rate; no zones', () => {
    const r = mapExercise(EXERCISE);
    expect(r).toMatchObject({ type: 'workout', log_id: '2AC312F', start_time: '2008-10-13T07:40:02Z', end_time: '2008-10-13T10:24:02Z', utc_offset: 10800, category: 'other', name: 'Watersports waterski' });
    expect(r.source).toEqual({ type: 'polar', device: { name: 'Polar M400', id: '1111AAAA', manufacturer: 'Polar' } });
    expect(r.metrics).toEqual([
      { type: 'energy_burned', unit: 'kcal', value: 530, origin: 'device' },
      { type: 'distance', unit: 'm', value: 1600, origin: 'device' },
      { type: 'avg_heart_rate', unit: 'bpm', value: 129, origin: 'device' },
      { type: 'max_heart_rate', unit: 'bpm', value: 147, origin: 'device' },
    ]);
    assertIngestible([r, mapExercise({ ...EXERCISE, id: 'x', start_time_utc_offset: undefined, heart_rate: undefined, sport: 'RUNNING', detailed_sport_info: undefined })]);
  });

  it('names workout categories from Polar sports', () => {
    expect(workoutCategory('TRAIL_RUNNING')).toBe('running');
    expect(workoutCategory('INDOOR_CYCLING')).toBe('cycling');
    expect(workoutCategory('NORDIC_WALKING')).toBe('walking');
    expect(workoutCategory('POOL_SWIMMING')).toBe('swimming');
    expect(workoutCategory('INDOOR_ROWING')).toBe('rowing');
    expect(workoutCategory('STRENGTH_TRAINING')).toBe('strength');
    expect(workoutCategory(undefined, 'YOGA')).toBe('yoga');
    expect(workoutCategory('LES_MILLS_GRIT_STRENGTH', 'OTHER')).toBe('other');
  });

  it('maps a night with its own offset, stage totals and hypnogram stages', () => {
    const r = mapSleep(NIGHT);
    expect(r).toMatchObject({ type: 'sleep', log_id: 'sleep:2020-01-01', start_time: '2019-12-31T21:39:07Z', end_time: '2020-01-01T06:19:37Z', utc_offset: 10800 });
    expect(r.metrics).toEqual(expect.arrayContaining([
      { type: 'sleep_duration', unit: 's', value: 4000, origin: 'device' },
      { type: 'deep_sleep_duration', unit: 's', value: 1000, origin: 'device' },
      { type: 'awake_duration', unit: 's', value: 1000, origin: 'device' },
      { type: 'sleep_score', unit: 'percent', value: 80, origin: 'device' },
    ]));
    // 00:39 lighter non-REM and 00:50 light non-REM merge into one light stage; the example's 01:23
    // code 6 is not a documented stage: a gap, not a failed night.
    expect(r.stages).toEqual([{ stage: 'light', start_time: '2019-12-31T21:39:07Z', end_time: '2019-12-31T22:23:00Z' }]);
    expect(mapSleep({ ...NIGHT, hypnogram: { ...NIGHT.hypnogram, '01:23': 4 } }).stages).toEqual([
      { stage: 'light', start_time: '2019-12-31T21:39:07Z', end_time: '2019-12-31T22:23:00Z' },
      { stage: 'deep', start_time: '2019-12-31T22:23:00Z', end_time: '2020-01-01T06:19:37Z' },
    ]);
    assertIngestible([r]);
  });

  it('places hypnogram keys after midnight on the next day and leaves unknown stages out', () => {
    const start = Date.parse('2024-03-01T23:30:00+01:00');
    const end = Date.parse('2024-03-02T07:00:00+01:00');
    expect(sleepStages({ '23:30': 0, '23:45': 2, '02:00': 5, '03:00': 1 }, start, end, 3600)).toEqual([
      { stage: 'awake', start_time: '2024-03-01T22:30:00Z', end_time: '2024-03-01T22:45:00Z' },
      { stage: 'light', start_time: '2024-03-01T22:45:00Z', end_time: '2024-03-02T01:00:00Z' },
      { stage: 'rem', start_time: '2024-03-02T02:00:00Z', end_time: '2024-03-02T06:00:00Z' },
    ]);
    expect(kindOf(() => sleepStages({ '25:00': 1 }, start, end, 3600))).toBe('bad_response');
  });

  it('maps a daily activity to a summary keyed by its day', () => {
    const r = mapActivity(ACTIVITY);
    expect(r).toMatchObject({ type: 'summary', log_id: 'activity:2025-08-13', start_time: '2025-08-13T08:15:30Z', end_time: '2025-08-13T23:59:59Z', category: 'daily' });
    expect(r.utc_offset).toBeUndefined();
    expect(r.metrics).toEqual([
      { type: 'steps', unit: 'count', value: 8823, origin: 'device' },
      { type: 'energy_burned', unit: 'kcal', value: 2500, origin: 'device' },
      { type: 'active_energy_burned', unit: 'kcal', value: 1500, origin: 'device' },
      { type: 'distance', unit: 'm', value: 4590.53, origin: 'device' },
    ]);
    assertIngestible([r]);
  });

  it('maps a continuous heart-rate day, in UTC or in the user\'s zone', () => {
    const utc = mapHeartRateDay(CHR, null)!;
    expect(utc).toMatchObject({ type: 'intraday', log_id: 'continuous_heart_rate:2022-09-12', start_time: '2022-09-12T00:00:00Z', end_time: '2022-09-13T00:00:00Z' });
    expect(utc.metrics).toEqual([{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT5M', samples: [{ time: '2022-09-12T00:02:08Z', value: 63 }, { time: '2022-09-12T00:07:08Z', value: 62 }] }]);
    const helsinki = mapHeartRateDay(CHR, 'Europe/Helsinki')!;
    expect(helsinki).toMatchObject({ start_time: '2022-09-11T21:00:00Z', end_time: '2022-09-12T21:00:00Z' });
    expect(helsinki.utc_offset).toBeUndefined();
    expect(mapHeartRateDay({ ...CHR, heart_rate_samples: [] }, null)).toBeUndefined();
    expect(kindOf(() => mapHeartRateDay({ ...CHR, heart_rate_samples: [{ heart_rate: 60, sample_time: 'noon' }] }, null))).toBe('bad_response');
    assertIngestible([utc, helsinki]);
  });

  it('maps physical info to a measurement of weight and height only', () => {
    const r = mapPhysicalInfo(PHYSICAL)!;
    expect(r).toEqual({
      type: 'measurement', source: { type: 'polar' }, log_id: 'physical_info:123', start_time: '2016-04-27T20:11:33Z', end_time: '2016-04-27T20:11:33Z',
      metrics: [{ type: 'body_weight', unit: 'kg', value: 80, origin: 'device' }, { type: 'height', unit: 'cm', value: 180, origin: 'unknown' }],
    });
    expect(mapPhysicalInfo({ ...PHYSICAL, weight: undefined, height: undefined })).toBeUndefined();
    expect(mapPhysicalInfo({ ...PHYSICAL, 'weight-source': 'SOURCE_USER' })!.metrics![0]).toMatchObject({ origin: 'manual' });
    assertIngestible([r]);
  });

  it('follows physical info links only as entries of the same user and transaction', () => {
    expect(entryPath('https://www.polaraccesslink.com/v3/users/12/physical-information-transactions/12/physical-informations/56', '12', '12')).toBe('/v3/users/12/physical-information-transactions/12/physical-informations/56');
    expect(kindOf(() => entryPath('https://evil.example/v3/users/13/physical-information-transactions/12/physical-informations/56', '12', '12'))).toBe('bad_response');
    expect(kindOf(() => entryPath('https://www.polaraccesslink.com/v3/exercises/1', '12', '12'))).toBe('bad_response');
  });

  it('reads ISO 8601 durations and local times', () => {
    expect(durationSeconds('PT2H44M', 'd')).toBe(9840);
    expect(durationSeconds('PT210.026S', 'd')).toBeCloseTo(210.026);
    expect(durationSeconds('P1DT1S', 'd')).toBe(86401);
    expect(kindOf(() => durationSeconds('2h', 'd'))).toBe('bad_response');
    // 02:30 on the spring-forward night in Berlin does not exist; it lands an hour either side, never NaN.
    expect(Number.isFinite(localToInstant(Date.parse('2024-03-31T02:30:00Z'), 'Europe/Berlin'))).toBe(true);
    expect(localToInstant(Date.parse('2024-07-01T12:00:00Z'), 'America/New_York')).toBe(Date.parse('2024-07-01T16:00:00Z'));
  });

  it('refuses wrong shapes as bad_response', () => {
    expect(kindOf(() => mapExercise({ ...EXERCISE, duration: 42 }))).toBe('bad_response');
    expect(kindOf(() => mapSleep({ ...NIGHT, sleep_start_time: '2020-01-01T00:39:07' }))).toBe('bad_response');
    expect(kindOf(() => mapActivity({ ...ACTIVITY, steps: '8823' }))).toBe('bad_response');
  });
});
