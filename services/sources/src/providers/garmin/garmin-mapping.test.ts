/**
 * Garmin's summaries mapped to records, with the field names and example values of the Health and
 * Activity API documents; every mapped record passes the records service's own validation.
 */
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { mapDaily, mapDailyHeartRate, mapEpoch } from './garmin-daily-mapping';
import { categoryOf, mapActivity, mapBodyComp, mapPulseOx } from './garmin-health-mapping';
import { mapSleep } from './garmin-sleep-mapping';
import { readPull } from './garmin-summaries';

const DAILY = {
  summaryId: 'EXAMPLE_67891', calendarDate: '2016-01-11', activityType: 'WALKING', activeKilocalories: 321, bmrKilocalories: 1731, steps: 4210,
  distanceInMeters: 3146.5, durationInSeconds: 86400, activeTimeInSeconds: 12240, startTimeInSeconds: 1452470400, startTimeOffsetInSeconds: 3600,
  floorsClimbed: 8, restingHeartRateInBeatsPerMinute: 58, timeOffsetHeartRateSamples: { '15': 75, '30': 75, '3180': 76, '3195': 65, '3210': 65, '3225': 73, '3240': 74, '3255': 74 },
};
const SLEEP = {
  summaryId: 'EXAMPLE_567890', calendarDate: '2016-01-10', durationInSeconds: 15264, startTimeInSeconds: 1452419581, startTimeOffsetInSeconds: 7200,
  unmeasurableSleepDurationInSeconds: 0, deepSleepDurationInSeconds: 11231, lightSleepDurationInSeconds: 3541, remSleepInSeconds: 0, awakeDurationInSeconds: 492,
  sleepLevelsMap: { deep: [{ startTimeInSeconds: 1452419581, endTimeInSeconds: 1452478724 - 48_000 }], light: [{ startTimeInSeconds: 1452478724 - 48_000, endTimeInSeconds: 1452478724 - 44_000 }], awake: [{ startTimeInSeconds: 1452478724 - 44_000, endTimeInSeconds: 1452478724 - 43_500 }] },
  validation: 'AUTO_FINAL', overallSleepScore: { value: 87, qualifierKey: 'GOOD' },
};
const ACTIVITY = {
  summaryId: '5001968355', activityId: 5001968355, activityName: 'Olathe Running', durationInSeconds: 3667, startTimeInSeconds: 1583186400, startTimeOffsetInSeconds: -21600,
  activityType: 'RUNNING', averageHeartRateInBeatsPerMinute: 140, averageSpeedInMetersPerSecond: 2.8, activeKilocalories: 510, deviceName: 'forerunner935',
  distanceInMeters: 10233.5, maxHeartRateInBeatsPerMinute: 172, steps: 9000, totalElevationGainInMeters: 40.5,
};

describe('Garmin mapping', () => {
  it('maps a daily summary to the day\'s summary and its heart rate to one value a minute', () => {
    const summary = mapDaily(DAILY);
    expect(summary).toMatchObject({ log_id: 'dailies:2016-01-11', start_time: '2016-01-11T00:00:00Z', end_time: '2016-01-12T00:00:00Z', utc_offset: 3600, category: 'daily' });
    expect(summary.metrics).toEqual(expect.arrayContaining([
      { type: 'steps', unit: 'count', value: 4210, origin: 'device' },
      { type: 'active_energy_burned', unit: 'kcal', value: 321, origin: 'device' },
      { type: 'basal_energy_burned', unit: 'kcal', value: 1731, origin: 'device' },
      { type: 'resting_heart_rate', unit: 'bpm', value: 58, origin: 'device' },
    ]));
    const hr = mapDailyHeartRate(DAILY)!;
    expect(hr.log_id).toBe('heart_rate:2016-01-11');
    expect(hr.metrics[0].samples).toEqual([
      { time: '2016-01-11T00:00:00Z', value: 75 },
      { time: '2016-01-11T00:53:00Z', value: 69.8 },
      { time: '2016-01-11T00:54:00Z', value: 74 },
    ]);
    expect(mapDailyHeartRate({ ...DAILY, timeOffsetHeartRateSamples: {} })).toBeUndefined();
    assertIngestible([summary, hr]);
  });

  it('maps an epoch to 15-minute samples keyed by its start and activity type (a partial epoch is replaced by the full one)', () => {
    const e = { summaryId: 'x-1', activityType: 'SEDENTARY', activeKilocalories: 24, steps: 93, distanceInMeters: 49.11, durationInSeconds: 840, startTimeInSeconds: 1452470400, startTimeOffsetInSeconds: 3600 };
    const r = mapEpoch(e)!;
    expect(r.log_id).toBe('epochs:1452470400:SEDENTARY');
    expect(mapEpoch({ ...e, summaryId: 'x-2', durationInSeconds: 900 })!.log_id).toBe(r.log_id);
    expect(r.metrics.map((m) => [m.type, m.granularity, m.samples[0].value])).toEqual([['steps', 'PT15M', 93], ['distance', 'PT15M', 49.11], ['active_energy_burned', 'PT15M', 24]]);
    assertIngestible([r]);
  });

  it('maps a sleep with its stages from sleepLevelsMap and its score', () => {
    const s = mapSleep(SLEEP);
    expect(s).toMatchObject({ log_id: 'sleeps:2016-01-10', start_time: '2016-01-10T09:53:01Z', utc_offset: 7200 });
    expect(s.stages!.map((x) => x.stage)).toEqual(['deep', 'light', 'awake']);
    expect(s.metrics).toEqual(expect.arrayContaining([{ type: 'sleep_duration', unit: 's', value: 15264, origin: 'device' }, { type: 'sleep_score', unit: 'percent', value: 87, origin: 'device' }]));
    assertIngestible([s]);
  });

  it('maps an activity to a workout by its activity type, and body composition and pulse ox', () => {
    const w = mapActivity(ACTIVITY);
    expect(w).toMatchObject({ log_id: 'activities:5001968355', category: 'running', name: 'Olathe Running', start_time: '2020-03-02T22:00:00Z', utc_offset: -21600 });
    expect(['TRAIL_RUNNING', 'ROAD_BIKING', 'LAP_SWIMMING', 'HIKING', 'WALKING', 'INDOOR_ROWING', 'STRENGTH_TRAINING', 'YOGA', 'GOLF'].map(categoryOf)).toEqual(['running', 'cycling', 'swimming', 'hiking', 'walking', 'rowing', 'strength', 'yoga', 'other']);
    const b = mapBodyComp({ summaryId: 'EXAMPLE_678901', measurementTimeInSeconds: 1439741130, measurementTimeOffsetInSeconds: 0, muscleMassInGrams: 25478, boneMassInGrams: 2437, bodyWaterInPercent: 59.4, bodyFatInPercent: 17.1, bodyMassIndex: 23.2, weightInGrams: 75450 })!;
    expect(b.metrics).toEqual([{ type: 'body_weight', unit: 'kg', value: 75.45, origin: 'device' }, { type: 'body_fat', unit: 'percent', value: 17.1, origin: 'device' }, { type: 'bmi', unit: 'kg/m2', value: 23.2, origin: 'device' }]);
    const p = mapPulseOx({ summaryId: 'x', calendarDate: '2018-08-27', startTimeInSeconds: 1535400706, durationInSeconds: 86400, startTimeOffsetInSeconds: 7200, timeOffsetSpo2Values: { '0': 94, '3600': 95, '7200': 96 }, onDemand: false })!;
    expect(p.metrics[0]).toMatchObject({ type: 'oxygen_saturation', unit: 'percent', samples: [{ value: 94 }, { value: 95 }, { value: 96 }] });
    assertIngestible([w, b, p]);
  });

  it('fails a garbage answer as bad_response, never a TypeError', () => {
    for (const [resource, body] of [['dailies', '<html>'], ['dailies', '{}'], ['sleeps', '[1]'], ['activities', '[{"summaryId":"x"}]'], ['dailies', JSON.stringify([{ ...DAILY, startTimeInSeconds: 'x' }])], ['sleeps', JSON.stringify([{ ...SLEEP, sleepLevelsMap: { deep: 'x' } }])]]) {
      expect(() => readPull(resource, body, 200)).toThrow(expect.objectContaining({ kind: 'bad_response' }));
    }
    expect(readPull('activities', JSON.stringify([ACTIVITY]), 200)).toHaveLength(1);
  });
});
