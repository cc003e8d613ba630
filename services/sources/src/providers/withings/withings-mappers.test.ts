import { assertIngestible } from '@wellstream/testing';
import { withingsAdapter } from './withings.adapter';
import { json, scriptedHttp, SETTINGS } from './simulator/withings-unit-fixtures';
import type { ValueMetric } from '../provider.port';

const CTX = { userTimezone: null };
const win = (start: string, end: string, cursor?: string) => ({ start: new Date(start), end: new Date(end), ...(cursor ? { cursor } : {}) });

// measuregrp_object / measure_object examples of the API reference (grpid 12, date 1594245600, 65750 × 10^-3 kg),
// plus the blood-pressure group shape the same object documents (systole, diastole, pulse together).
const GETMEAS = {
  status: 0,
  body: {
    updatetime: 1594257200,
    timezone: 'Europe/Paris',
    measuregrps: [
      {
        grpid: 12,
        attrib: 1,
        date: 1594245600,
        created: 1594246600,
        modified: 1594257200,
        category: 1,
        hash_deviceid: '892359876fd8805ac45bab078c4828692f0276b1',
        model: 'Body Cardio',
        measures: [
          { value: 65750, type: 1, unit: -3 },
          { value: 2150, type: 6, unit: -2 },
          { value: 5032, type: 76, unit: -2 }, // muscle mass: no catalog metric, left out
        ],
      },
      { grpid: 13, attrib: 2, date: 1594249200, category: 1, measures: [{ value: 120, type: 10, unit: 0 }, { value: 80, type: 9, unit: 0 }, { value: 88, type: 11, unit: 0 }] },
      { grpid: 14, attrib: 0, date: 1594249300, category: 2, measures: [{ value: 60000, type: 1, unit: -3 }] }, // an objective
      { grpid: 15, attrib: 0, date: 1594249400, category: 1, measures: [{ value: 1, type: 130, unit: 0 }] }, // AFib only: nothing mapped
      { grpid: 'x', measures: 'garbage' },
    ],
    more: 1,
    offset: 5,
  },
};

describe('Withings getmeas', () => {
  it('maps groups to measurements (value × 10^unit, catalog metrics only) and pages with offset', async () => {
    const http = scriptedHttp(json(GETMEAS));
    const res = await withingsAdapter.fetchWindow(http, SETTINGS, 'tok', 'getmeas', win('2020-07-08T00:00:00Z', '2020-07-10T00:00:00Z'), CTX);
    expect(http.requests[0]).toMatchObject({ url: 'https://wbsapi.withings.net/measure', headers: { authorization: 'Bearer tok' } });
    expect(http.requests[0].form).toMatchObject({ action: 'getmeas', category: '1', startdate: '1594166400', enddate: '1594339199' });
    expect(res.nextCursor).toBe('5');
    expect(res.records).toHaveLength(2);
    const [weight, bp] = res.records;
    expect(weight).toMatchObject({ type: 'measurement', log_id: '12', start_time: '2020-07-08T22:00:00Z', utc_offset: 7200 });
    expect(weight.source.device).toEqual({ manufacturer: 'Withings', name: 'Body Cardio', id: '892359876fd8805ac45bab078c4828692f0276b1' });
    expect(weight.metrics).toEqual([
      { type: 'body_weight', unit: 'kg', value: 65.75, origin: 'device' },
      { type: 'body_fat', unit: 'percent', value: 21.5, origin: 'device' },
    ]);
    expect(bp.metrics!.map((m) => [m.type, (m as ValueMetric).value, m.origin])).toEqual([
      ['blood_pressure_systolic', 120, 'manual'],
      ['blood_pressure_diastolic', 80, 'manual'],
      ['heart_rate', 88, 'manual'],
    ]);
    assertIngestible(res.records);
  });

  it('sends the cursor back as offset and drops groups outside the window', async () => {
    const http = scriptedHttp(json({ status: 0, body: { ...GETMEAS.body, more: 0 } }));
    const res = await withingsAdapter.fetchWindow(http, SETTINGS, 'tok', 'getmeas', win('2020-07-08T23:00:00Z', '2020-07-10T00:00:00Z', '5'), CTX);
    expect(http.requests[0].form!.offset).toBe('5');
    expect(res.records.map((r) => r.log_id)).toEqual(['13']);
    expect(res.nextCursor).toBeUndefined();
  });

  it.each([
    ['an expired token (status 401 in a 200)', json({ status: 401, body: {}, error: 'XRequestID: Not provided invalid_token: The access token provided is invalid' }), 'auth_invalid'],
    ['HTTP 401', { status: 401, headers: {}, body: '' }, 'auth_invalid'],
    ['too many requests (601)', json({ status: 601, body: {} }), 'rate_limited'],
    ['HTTP 429', { status: 429, headers: { 'retry-after': '7' }, body: '' }, 'rate_limited'],
    ['HTTP 502', { status: 502, headers: {}, body: '<html>' }, 'temporary'],
    ['an error occurred (2556)', json({ status: 2556, body: {} }), 'temporary'],
    ['invalid params (503 in a 200)', json({ status: 503, body: {}, error: 'Invalid Params' }), 'bad_response'],
    ['garbage', { status: 200, headers: {}, body: '<<not json' }, 'bad_response'],
    ['an envelope without status', json({ body: {} }), 'bad_response'],
    ['a body that is a string', json({ status: 0, body: 'x' }), 'bad_response'],
  ])('%s becomes %s', async (_what, answer, kind) => {
    await expect(withingsAdapter.fetchWindow(scriptedHttp(answer), SETTINGS, 'tok', 'getmeas', win('2020-07-08T00:00:00Z', '2020-07-09T00:00:00Z'), CTX)).rejects.toMatchObject({ kind });
  });

  it('takes Retry-After on a 429', async () => {
    const answer = { status: 429, headers: { 'retry-after': '7' }, body: '' };
    await expect(withingsAdapter.fetchWindow(scriptedHttp(answer), SETTINGS, 't', 'getmeas', win('2020-07-08T00:00:00Z', '2020-07-09T00:00:00Z'), CTX)).rejects.toMatchObject({ details: { retryAfterMs: 7000 } });
  });

  it('survives a success envelope full of wrong types', async () => {
    const res = await withingsAdapter.fetchWindow(scriptedHttp(json({ status: 0, body: { measuregrps: {}, more: 'yes' } })), SETTINGS, 't', 'getmeas', win('2020-07-08T00:00:00Z', '2020-07-09T00:00:00Z'), CTX);
    expect(res).toEqual({ records: [] });
  });
});

describe('Withings getactivity, getworkouts, getsummary, getintradayactivity', () => {
  it('maps the documented activity example to a daily summary starting at local midnight', async () => {
    // activity_object examples of the API reference.
    const activity = { date: '2020-06-24', timezone: 'Europe/Paris', hash_deviceid: '892359876fd8805ac45bab078c4828692f0276b1', brand: 18, is_tracker: true, model: 'Pulse HR', steps: 6200, distance: 3000, elevation: 100, soft: 800, moderate: 1000, intense: 700, active: 2300, calories: 1200, totalcalories: 3500, hr_average: 80, hr_zone_0: 100 };
    const http = scriptedHttp(json({ status: 0, body: { activities: [activity, { date: 'nope' }], more: true, offset: 1 } }));
    const res = await withingsAdapter.fetchWindow(http, SETTINGS, 't', 'getactivity', win('2020-06-23T00:00:00Z', '2020-06-25T00:00:00Z'), CTX);
    expect(http.requests[0].form).toMatchObject({ action: 'getactivity', startdateymd: '2020-06-22', enddateymd: '2020-06-26' });
    expect(res.nextCursor).toBe('1');
    expect(res.records).toEqual([
      {
        type: 'summary',
        category: 'daily',
        source: { type: 'withings', device: { manufacturer: 'Withings', name: 'Pulse HR', id: '892359876fd8805ac45bab078c4828692f0276b1' } },
        log_id: 'activity-2020-06-24',
        start_time: '2020-06-23T22:00:00Z',
        end_time: '2020-06-24T21:59:59Z',
        utc_offset: 7200,
        metrics: [
          { type: 'steps', unit: 'count', value: 6200, origin: 'device' },
          { type: 'distance', unit: 'm', value: 3000, origin: 'device' },
          { type: 'floors_climbed', unit: 'count', value: 100, origin: 'device' },
          { type: 'active_energy_burned', unit: 'kcal', value: 1200, origin: 'device' },
          { type: 'energy_burned', unit: 'kcal', value: 3500, origin: 'device' },
        ],
      },
    ]);
    assertIngestible(res.records);
  });

  it('maps workouts and sleep summaries from the documented examples', async () => {
    // workout_object / sleep_summary_object examples of the API reference.
    const workout = { id: 12345, category: 2, timezone: 'Europe/Paris', model: 59, attrib: 0, startdate: 1594245600, enddate: 1594257200, date: '2020-07-09', data: { calories: 520, distance: 8000, steps: 9000, hr_average: 150, hr_max: 175, hr_min: 90, elevation: 3 } };
    const w = await withingsAdapter.fetchWindow(scriptedHttp(json({ status: 0, body: { series: [workout], more: false, offset: 0 } })), SETTINGS, 't', 'getworkouts', win('2020-07-08T00:00:00Z', '2020-07-10T00:00:00Z'), CTX);
    expect(w.records[0]).toMatchObject({ type: 'workout', category: 'running', name: 'Run', log_id: '12345', start_time: '2020-07-08T22:00:00Z', end_time: '2020-07-09T01:13:20Z', utc_offset: 7200 });
    expect(w.records[0].metrics!.map((m) => m.type)).toEqual(['active_energy_burned', 'distance', 'steps', 'avg_heart_rate', 'max_heart_rate']);
    const sleep = { id: 12345, timezone: 'Europe/Paris', model: 16, model_id: 51, startdate: 1594245600, enddate: 1594257200, date: '2020-07-09', data: { total_timeinbed: 11600, total_sleep_time: 10000, lightsleepduration: 5000, deepsleepduration: 3000, remsleepduration: 2000, durationtosleep: 300, wakeupcount: 2, wakeupduration: 600, sleep_score: 78, hr_average: 60, snoring: 120 } };
    const s = await withingsAdapter.fetchWindow(scriptedHttp(json({ status: 0, body: { series: [sleep], more: false } })), SETTINGS, 't', 'getsummary', win('2020-07-08T00:00:00Z', '2020-07-10T00:00:00Z'), CTX);
    expect(s.records[0]).toMatchObject({ type: 'sleep', log_id: '12345', start_time: '2020-07-08T22:00:00Z', utc_offset: 7200 });
    expect(Object.fromEntries(s.records[0].metrics!.map((m) => [m.type, (m as ValueMetric).value]))).toEqual({
      in_bed_duration: 11600,
      sleep_duration: 10000,
      light_sleep_duration: 5000,
      deep_sleep_duration: 3000,
      rem_sleep_duration: 2000,
      time_to_fall_asleep: 300,
      awake_duration: 600,
      awake_count: 2,
      sleep_score: 78,
    });
    assertIngestible([...w.records, ...s.records]);
  });

  it('builds one intraday record per UTC day with per-minute series, one day per call', async () => {
    const day = 1594252800; // 2020-07-09T00:00:00Z
    const series = {
      [day + 60]: { steps: 10, distance: 7.5, calories: 0.4, heart_rate: 70, model: 'ScanWatch' },
      [day + 90]: { steps: 5, heart_rate: 74 },
      [day + 3600]: { steps: 30, elevation: 1, spo2_auto: 97 },
      oops: { steps: 1 },
    };
    const http = scriptedHttp(json({ status: 0, body: { series } }));
    const res = await withingsAdapter.fetchWindow(http, SETTINGS, 't', 'getintradayactivity', win('2020-07-09T00:00:00Z', '2020-07-11T00:00:00Z'), CTX);
    expect(http.requests[0].form).toMatchObject({ action: 'getintradayactivity', startdate: String(day), enddate: String(day + 86399) });
    expect(res.nextCursor).toBe(String(day + 86400));
    const rec = res.records[0];
    expect(rec).toMatchObject({ type: 'intraday', log_id: 'intraday-2020-07-09', start_time: '2020-07-09T00:00:00Z', end_time: '2020-07-09T23:59:59Z' });
    expect(rec.utc_offset).toBeUndefined();
    const byType = Object.fromEntries((rec.metrics as unknown as { type: string; samples: unknown[] }[]).map((m) => [m.type, m.samples]));
    expect(byType.steps).toEqual([{ time: '2020-07-09T00:01:00Z', value: 15 }, { time: '2020-07-09T01:00:00Z', value: 30 }]);
    expect(byType.heart_rate).toEqual([{ time: '2020-07-09T00:01:00Z', value: 72 }]);
    expect(Object.keys(byType)).toEqual(['steps', 'distance', 'active_energy_burned', 'floors_climbed', 'heart_rate', 'oxygen_saturation']);
    assertIngestible(res.records);
    // A window holding no UTC day start asks nothing.
    const none = await withingsAdapter.fetchWindow(scriptedHttp(), SETTINGS, 't', 'getintradayactivity', win('2020-07-09T01:00:00Z', '2020-07-09T23:00:00Z'), CTX);
    expect(none).toEqual({ records: [] });
  });
});
