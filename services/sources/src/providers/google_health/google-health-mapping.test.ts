/**
 * Google Health data points (proto3 JSON: int64 as strings, Durations as "3600s") → records the
 * records service accepts; a wrong-shaped answer is bad_response.
 */
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError } from '../provider.port';
import { dayRecords } from './google-health-heartrate';
import { mapBodyFat, mapExercise, mapSleep, mapWeight } from './google-health-mapping';

const name = (type: string, id: string) => `users/1234567890/dataTypes/${type}/dataPoints/${id}`;
const interval = { startTime: '2026-11-20T06:00:00Z', startUtcOffset: '3600s', endTime: '2026-11-20T06:45:30.500Z', endUtcOffset: '3600s' };

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
};

describe('Google Health mapping', () => {
  it('maps an exercise session with its metricsSummary in catalog units', () => {
    const r = mapExercise({
      name: name('exercise', 'ex1'),
      exercise: { interval, exerciseType: 'RUNNING', displayName: 'Morning run', activeDuration: '2640s', metricsSummary: { caloriesKcal: 310.5, distanceMillimeters: 5_200_000, steps: '5400', averageHeartRateBeatsPerMinute: '142' } },
    });
    expect(r).toMatchObject({ type: 'workout', log_id: 'exercise:ex1', start_time: '2026-11-20T06:00:00Z', end_time: '2026-11-20T06:45:30Z', utc_offset: 3600, category: 'running', name: 'Morning run' });
    expect(Object.fromEntries(r.metrics.map((m) => [m.type, [m.value, m.unit]]))).toEqual({
      active_energy_burned: [310.5, 'kcal'], distance: [5200, 'm'], steps: [5400, 'count'], avg_heart_rate: [142, 'bpm'], active_duration: [2640, 's'],
    });
    assertIngestible([r]);
    expect(mapExercise({ name: name('exercise', 'ex2'), exercise: { interval, exerciseType: 'PADDLEBOARDING' } })).toMatchObject({ category: 'other', name: 'PADDLEBOARDING', metrics: [] });
  });

  it('maps a sleep with its summary minutes and Sleep.SleepStage segments, leaving out stages with no catalog stage', () => {
    const sleep = (stages: unknown[]) => ({
      name: name('sleep', 's1'),
      sleep: {
        interval: { ...interval, startTime: '2026-11-19T22:00:00Z', endTime: '2026-11-20T05:30:00Z' },
        stages,
        summary: { minutesInSleepPeriod: '450', minutesAsleep: '420', minutesAwake: '30', minutesToFallAsleep: '8' },
      },
    });
    const offsets = { startUtcOffset: '3600s', endUtcOffset: '3600s' };
    const r = mapSleep(sleep([
      { type: 'LIGHT', startTime: '2026-11-19T22:00:00Z', endTime: '2026-11-19T23:00:00Z', ...offsets },
      { type: 'DEEP', startTime: '2026-11-19T23:00:00Z', endTime: '2026-11-20T00:30:00Z', ...offsets },
      { type: 'ASLEEP', startTime: '2026-11-20T00:30:00Z', endTime: '2026-11-20T01:00:00Z', ...offsets },
      { type: 'SLEEP_STAGE_TYPE_UNSPECIFIED', startTime: '2026-11-20T01:00:00Z', endTime: '2026-11-20T01:10:00Z', ...offsets },
    ]));
    expect(r.stages?.map((s) => s.stage)).toEqual(['light', 'deep']);
    // The segment's shape is documented (startTime and endTime required): one that is not it is an unreadable answer.
    expect(kindOf(() => mapSleep(sleep([{ type: 'REM', startTime: 'garbage', endTime: '2026-11-20T02:00:00Z' }])))).toBe('bad_response');
    expect(kindOf(() => mapSleep(sleep(['nonsense'])))).toBe('bad_response');
    expect(kindOf(() => mapSleep({ ...sleep([]), sleep: { ...sleep([]).sleep, stages: 'all of them' } }))).toBe('bad_response');
    expect(Object.fromEntries(r.metrics.map((m) => [m.type, m.value]))).toEqual({
      in_bed_duration: 27000, sleep_duration: 25200, awake_duration: 1800, time_to_fall_asleep: 480, light_sleep_duration: 3600, deep_sleep_duration: 5400,
    });
    assertIngestible([r]);
  });

  it('maps a weight in kg, manual when the user logged notes', () => {
    const r = mapWeight({ name: name('weight', 'w1'), weight: { sampleTime: { physicalTime: '2026-11-20T07:00:00Z', utcOffset: '-18000s' }, weightGrams: 72450.4, notes: 'after run' } });
    expect(r).toMatchObject({ log_id: 'weight:w1', utc_offset: -18000, metrics: [{ type: 'body_weight', unit: 'kg', value: 72.45, origin: 'manual' }] });
    assertIngestible([r]);
  });

  it('keeps one heart-rate sample a minute in one record per UTC day', () => {
    const at = Date.parse('2026-11-20T23:59:10Z');
    const records = dayRecords([{ at, bpm: 60 }, { at: at + 20_000, bpm: 61 }, { at: at + 60_000, bpm: 62 }]);
    expect(records.map((r) => r.log_id)).toEqual(['heart-rate:2026-11-20', 'heart-rate:2026-11-21']);
    expect((records[0] as any).metrics[0].samples).toEqual([{ time: '2026-11-20T23:59:00Z', value: 60 }]);
    assertIngestible(records);
  });

  it('refuses wrong shapes as bad_response', () => {
    expect(kindOf(() => mapExercise({ name: 'nope', exercise: { interval } }))).toBe('bad_response');
    expect(kindOf(() => mapExercise({ name: name('exercise', 'x'), exercise: { interval: { ...interval, startTime: 'yesterday' } } }))).toBe('bad_response');
    expect(kindOf(() => mapExercise({ name: name('exercise', 'x'), exercise: { interval, activeDuration: 3600 } }))).toBe('bad_response');
    expect(kindOf(() => mapSleep({ name: name('sleep', 'x') }))).toBe('bad_response');
    expect(kindOf(() => mapWeight({ name: name('weight', 'x'), weight: { sampleTime: { physicalTime: '2026-11-20T07:00:00Z' }, weightGrams: 'heavy' } }))).toBe('bad_response');
  });

  it('maps a body fat sample to a body_fat measurement; a percentage outside [0, 100] is bad_response', () => {
    const r = mapBodyFat({ name: name('body-fat', 'bf1'), bodyFat: { sampleTime: { physicalTime: '2026-11-20T07:01:00Z', utcOffset: '-18000s' }, percentage: 21.7 } });
    expect(r).toMatchObject({ type: 'measurement', log_id: 'body_fat:bf1', start_time: '2026-11-20T07:01:00Z', utc_offset: -18000, metrics: [{ type: 'body_fat', unit: 'percent', value: 21.7 }] });
    assertIngestible([r]);
    expect(kindOf(() => mapBodyFat({ name: name('body-fat', 'bf2'), bodyFat: { sampleTime: { physicalTime: '2026-11-20T07:01:00Z' }, percentage: 140 } }))).toBe('bad_response');
    expect(kindOf(() => mapBodyFat({ name: name('body-fat', 'bf3'), weight: {} }))).toBe('bad_response');
  });
});
