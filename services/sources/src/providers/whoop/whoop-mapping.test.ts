/**
 * WHOOP v2 objects → records, with payloads taken from the examples of WHOOP's OpenAPI document
 * (Cycle 93845, Sleep ecfc6a15-…, Recovery of cycle 93845, WorkoutV2, UserBodyMeasurement).
 */
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError } from '../provider.port';
import { cycleSpan, mapBodyMeasurement, mapCycle, mapRecovery, mapSleep, mapWorkout, workoutCategory } from './whoop-mapping';

const cycle = {
  id: 93845,
  user_id: 10129,
  created_at: '2022-04-24T11:25:44.774Z',
  updated_at: '2022-04-24T14:25:44.774Z',
  start: '2022-04-24T02:25:44.774Z',
  end: '2022-04-24T10:25:44.774Z',
  timezone_offset: '-05:00',
  score_state: 'SCORED',
  score: { strain: 5.2951527, kilojoule: 8288.297, average_heart_rate: 68, max_heart_rate: 141 },
};

const sleep = {
  id: 'ecfc6a15-4661-442f-a9a4-f160dd7afae8',
  cycle_id: 93845,
  v1_id: 93845,
  user_id: 10129,
  created_at: '2022-04-24T11:25:44.774Z',
  updated_at: '2022-04-24T14:25:44.774Z',
  start: '2022-04-24T02:25:44.774Z',
  end: '2022-04-24T10:25:44.774Z',
  timezone_offset: '-05:00',
  nap: false,
  score_state: 'SCORED',
  score: {
    stage_summary: {
      total_in_bed_time_milli: 30272735,
      total_awake_time_milli: 1403507,
      total_no_data_time_milli: 0,
      total_light_sleep_time_milli: 14905851,
      total_slow_wave_sleep_time_milli: 6630370,
      total_rem_sleep_time_milli: 5879573,
      sleep_cycle_count: 3,
      disturbance_count: 12,
    },
    sleep_needed: { baseline_milli: 27395716, need_from_sleep_debt_milli: 352230, need_from_recent_strain_milli: 208595, need_from_recent_nap_milli: -12312 },
    respiratory_rate: 16.11328125,
    sleep_performance_percentage: 98,
    sleep_consistency_percentage: 90,
    sleep_efficiency_percentage: 91.69533848,
  },
};

const recovery = {
  cycle_id: 93845,
  sleep_id: '123e4567-e89b-12d3-a456-426614174000',
  user_id: 10129,
  created_at: '2022-04-24T11:25:44.774Z',
  updated_at: '2022-04-24T14:25:44.774Z',
  score_state: 'SCORED',
  score: { user_calibrating: false, recovery_score: 44, resting_heart_rate: 64, hrv_rmssd_milli: 31.813562, spo2_percentage: 95.6875, skin_temp_celsius: 33.7 },
};

const workout = {
  id: 'ecfc6a15-4661-442f-a9a4-f160dd7afae8',
  v1_id: 1043,
  user_id: 9012,
  created_at: '2022-04-24T11:25:44.774Z',
  updated_at: '2022-04-24T14:25:44.774Z',
  start: '2022-04-24T02:25:44.774Z',
  end: '2022-04-24T10:25:44.774Z',
  timezone_offset: '-05:00',
  sport_name: 'running',
  score_state: 'SCORED',
  score: {
    strain: 8.2463,
    average_heart_rate: 123,
    max_heart_rate: 146,
    kilojoule: 1569.34033203125,
    percent_recorded: 100,
    distance_meter: 1772.77035916,
    altitude_gain_meter: 46.64384460449,
    altitude_change_meter: -0.781372010707855,
    zone_durations: { zone_zero_milli: 300000, zone_one_milli: 600000, zone_two_milli: 900000, zone_three_milli: 900000, zone_four_milli: 600000, zone_five_milli: 300000 },
  },
  sport_id: 1,
};

const kind = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : `not a ProviderError: ${String(e)}`;
  }
  return 'no error';
};

describe('WHOOP mapping', () => {
  it('maps a cycle to a summary with energy in kJ; strain and heart rates are left out', () => {
    const r = mapCycle(cycle, 0);
    expect(r).toMatchObject({ type: 'summary', log_id: '93845', start_time: '2022-04-24T02:25:44Z', end_time: '2022-04-24T10:25:44Z', utc_offset: -18000, category: 'daily' });
    expect(r.metrics).toEqual([{ type: 'energy_burned', unit: 'kJ', value: 8288.297, origin: 'device' }]);
    assertIngestible([r]);
  });

  it('runs the cycle the user is in (no end) to the open end given, never before its start', () => {
    const { end: _, ...open } = cycle;
    expect(mapCycle(open, Date.parse('2022-04-24T12:00:00Z')).end_time).toBe('2022-04-24T12:00:00Z');
    expect(mapCycle(open, 0).end_time).toBe('2022-04-24T02:25:44Z');
    assertIngestible([mapCycle({ ...open, score_state: 'PENDING_SCORE', score: undefined }, 0)]);
  });

  it('maps a recovery to a summary over its cycle, log_id recovery:<sleep UUID>, resting heart rate only', () => {
    const r = mapRecovery(recovery, cycleSpan(cycle, 0));
    expect(r).toMatchObject({ type: 'summary', log_id: `recovery:${recovery.sleep_id}`, start_time: '2022-04-24T02:25:44Z', utc_offset: -18000 });
    expect(r.metrics).toEqual([{ type: 'resting_heart_rate', unit: 'bpm', value: 64, origin: 'device' }]);
    expect(mapRecovery({ ...recovery, score_state: 'UNSCORABLE' }, cycleSpan(cycle, 0)).metrics).toEqual([]);
    assertIngestible([r]);
  });

  it('maps a sleep: stage milliseconds to seconds, slow wave as deep, time asleep as their sum', () => {
    const r = mapSleep(sleep);
    expect(r).toMatchObject({ type: 'sleep', log_id: sleep.id, start_time: '2022-04-24T02:25:44Z', end_time: '2022-04-24T10:25:44Z', utc_offset: -18000, stages: [] });
    const byType = Object.fromEntries(r.metrics!.map((m) => [m.type, (m as { value: number }).value]));
    expect(byType).toEqual({
      in_bed_duration: 30272.735,
      awake_duration: 1403.507,
      light_sleep_duration: 14905.851,
      deep_sleep_duration: 6630.37,
      rem_sleep_duration: 5879.573,
      sleep_duration: (14905851 + 6630370 + 5879573) / 1000,
    });
    expect(mapSleep({ ...sleep, score_state: 'PENDING_SCORE' }).metrics).toEqual([]);
    assertIngestible([r, mapSleep({ ...sleep, nap: true, timezone_offset: 'Z' })]);
  });

  it('maps a workout with WHOOP units; zones, strain and altitude change are left out', () => {
    const r = mapWorkout(workout);
    expect(r).toMatchObject({ type: 'workout', log_id: workout.id, category: 'running', name: 'running', utc_offset: -18000 });
    expect(r.metrics).toEqual([
      { type: 'energy_burned', unit: 'kJ', value: 1569.34033203125, origin: 'device' },
      { type: 'avg_heart_rate', unit: 'bpm', value: 123, origin: 'device' },
      { type: 'max_heart_rate', unit: 'bpm', value: 146, origin: 'device' },
      { type: 'distance', unit: 'm', value: 1772.77035916, origin: 'device' },
      { type: 'elevation', unit: 'm', value: 46.64384460449, origin: 'device' },
    ]);
    expect(workoutCategory('Weightlifting')).toBe('strength');
    expect(workoutCategory('hiking/rucking')).toBe('hiking');
    expect(workoutCategory('functional-fitness')).toBe('other');
    assertIngestible([r, mapWorkout({ ...workout, sport_name: 'yoga', score_state: 'UNSCORABLE', score: undefined })]);
  });

  it('maps body measurements to one measurement per UTC day; max heart rate is left out', () => {
    const at = Date.parse('2024-05-01T12:34:56.789Z');
    const r = mapBodyMeasurement({ height_meter: 1.8288, weight_kilogram: 90.7185, max_heart_rate: 200 }, at)!;
    expect(r).toEqual({
      type: 'measurement',
      source: { type: 'whoop' },
      log_id: 'body_measurement:2024-05-01',
      start_time: '2024-05-01T12:34:56Z',
      end_time: '2024-05-01T12:34:56Z',
      metrics: [
        { type: 'body_weight', unit: 'kg', value: 90.7185, origin: 'device' },
        { type: 'height', unit: 'm', value: 1.8288, origin: 'device' },
      ],
    });
    expect(mapBodyMeasurement({ max_heart_rate: 200 }, at)).toBeUndefined();
    assertIngestible([r]);
  });

  it('answers bad_response, never a TypeError, on wrong-shaped objects', () => {
    expect(kind(() => mapSleep({}))).toBe('bad_response');
    expect(kind(() => mapSleep({ ...sleep, start: 42 }))).toBe('bad_response');
    expect(kind(() => mapSleep({ ...sleep, end: 'yesterday' }))).toBe('bad_response');
    expect(kind(() => mapSleep({ ...sleep, timezone_offset: 'EST' }))).toBe('bad_response');
    expect(kind(() => mapSleep({ ...sleep, score: { stage_summary: { total_in_bed_time_milli: '1' } } }))).toBe('bad_response');
    expect(kind(() => mapSleep({ ...sleep, score: 'x' }))).toBe('bad_response');
    expect(kind(() => mapCycle({ ...cycle, id: { x: 1 } }, 0))).toBe('bad_response');
    expect(kind(() => mapCycle({ ...cycle, timezone_offset: '+25:00' }, 0))).toBe('bad_response');
    expect(kind(() => mapWorkout({ ...workout, sport_name: null }))).toBe('bad_response');
    expect(kind(() => mapRecovery({ ...recovery, sleep_id: undefined }, cycleSpan(cycle, 0)))).toBe('bad_response');
    expect(kind(() => mapBodyMeasurement({ weight_kilogram: '90' }, 0))).toBe('bad_response');
  });
});
