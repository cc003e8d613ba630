/**
 * The first sync's bounds, against a real platform in-process: batches leave as they fill (a month
 * is never queued whole), a workout's heart rate is read from the store for its window (whether or
 * not those samples were synced), and Health Connect's history permission is asked for when the
 * window reaches further back than Health Connect reads without it.
 */
import type { HealthConnectRecordResult } from 'react-native-health-connect';
import { ACTIVITY, appleWatchUser, healthConnectSource, healthKitSource, hkQuantity, hkWorkout, memoryStorage, MemoryHealthConnect, MemoryHealthKit, WellstreamMobile, type HealthKitBridge } from '../src';
import { OURA_REVISION } from './fixtures/healthkit-samples';
import { meta } from './fixtures/health-connect-records';
import { network, restRecords, startWorld, World } from './sync-harness';

const DAY = 86_400_000;
const MIN = 60_000;
const NOW = Date.now();
const iso = (t: number) => new Date(t).toISOString();

let world: World;
beforeAll(async () => {
  world = await startWorld('mobile-first-sync');
}, 120_000);
afterAll(async () => {
  await world?.stop();
});

type Workout = { log_id: string; metrics: { type: string; value: number }[] };
const heartRate = (w: Workout | undefined) => w?.metrics.filter((m) => m.type.endsWith('heart_rate')).map((m) => [m.type, m.value]);

it('a first sync sends each batch as it fills, before the store has been read to the end', async () => {
  const user = await world.newUser('bounded-user');
  const store = new MemoryHealthKit();
  store.add(...appleWatchUser({ days: 30, end: new Date(NOW), hrMinutes: 30, stepMinutes: 15, workoutHrSeconds: 60 }));
  const net = network();
  const order: string[] = [];
  const bridge: HealthKitBridge = {
    ...store.bridge,
    queryWorkoutSamplesWithAnchor: ((options: Parameters<HealthKitBridge['queryWorkoutSamplesWithAnchor']>[0]) => {
      order.push(`workouts read after ${net.recordPosts} posts`);
      return store.bridge.queryWorkoutSamplesWithAnchor(options);
    }) as HealthKitBridge['queryWorkoutSamplesWithAnchor'],
  };
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(bridge, { pageSize: 500 }), fetch: net.fetch });
  mobile.configure({ baseUrl: world.platform.baseUrl });
  await mobile.connect(user.token);
  const result = await mobile.sync();
  expect(result.queued).toBeGreaterThan(1000);
  // Workouts are the last feed: at least one full batch was already on the platform when they were read.
  expect(order[0]).not.toBe('workouts read after 0 posts');
  expect(result.uploaded).toBe(result.queued);
  expect(await mobile.status()).toMatchObject({ queueLength: 0 });
  const workouts = store.all().filter((s) => 'workoutActivityType' in s && s.startDate.getTime() >= NOW - 30 * DAY);
  expect((await restRecords(world.api, user.path, 'workout')).map((r) => r.log_id).sort()).toEqual(workouts.map((w) => w.uuid).sort());
});

it('HealthKit: a workout has the heart rate of its window though heart rate is not synced (workouts only)', async () => {
  const user = await world.newUser('hk-workout-user');
  const store = new MemoryHealthKit();
  const start = NOW - DAY;
  store.add(hkWorkout(ACTIVITY.running, { uuid: 'run-1', start: iso(start), end: iso(start + 30 * MIN), kcal: 300, zone: 'Europe/Berlin' }));
  for (let i = 0; i <= 30; i++) store.add(hkQuantity('HKQuantityTypeIdentifierHeartRate', 140 + i, 'count/min', { uuid: `hr-${i}`, start: iso(start + i * MIN) }));
  // Outside the window, and written by the app of a connected cloud source: both left out.
  store.add(hkQuantity('HKQuantityTypeIdentifierHeartRate', 190, 'count/min', { uuid: 'hr-after', start: iso(start + 31 * MIN) }));
  store.add(hkQuantity('HKQuantityTypeIdentifierHeartRate', 60, 'count/min', { uuid: 'hr-oura', start: iso(start + 10 * MIN), revision: OURA_REVISION }));
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: network().fetch });
  mobile.configure({ baseUrl: world.platform.baseUrl, connectedCloudSources: ['oura'] });
  await mobile.connect(user.token, { resources: ['workout'] });
  expect(store.authorized).toEqual(expect.arrayContaining(['HKWorkoutTypeIdentifier', 'HKQuantityTypeIdentifierHeartRate']));
  await mobile.sync();
  const [workout] = (await restRecords(world.api, user.path, 'workout')) as unknown as Workout[];
  expect(heartRate(workout)).toEqual([
    ['avg_heart_rate', 155],
    ['max_heart_rate', 170],
  ]);
  expect(await restRecords(world.api, user.path, 'intraday')).toEqual([]);
});

it('Health Connect: a workout has the heart rate of its window though heart rate is not synced (workouts only)', async () => {
  const user = await world.newUser('hc-workout-user');
  const store = new MemoryHealthConnect();
  const start = NOW - DAY;
  const samples = Array.from({ length: 11 }, (_, i) => ({ time: iso(start + i * 3 * MIN), beatsPerMinute: 130 + 2 * i }));
  store.add(
    { recordType: 'ExerciseSession', startTime: iso(start), endTime: iso(start + 30 * MIN), exerciseType: 56, title: 'Run', metadata: meta('hc-run-1') },
    { recordType: 'HeartRate', startTime: iso(start), endTime: iso(start + 30 * MIN), samples, metadata: meta('hc-hr-1') } as HealthConnectRecordResult,
  );
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthConnectSource(store.bridge), fetch: network().fetch });
  mobile.configure({ baseUrl: world.platform.baseUrl });
  await mobile.connect(user.token, { resources: ['workout'] });
  expect(store.granted).toEqual(expect.arrayContaining(['ExerciseSession', 'HeartRate']));
  await mobile.sync();
  const [workout] = (await restRecords(world.api, user.path, 'workout')) as unknown as Workout[];
  expect(heartRate(workout)).toEqual([
    ['avg_heart_rate', 140],
    ['max_heart_rate', 150],
  ]);
});

describe("Health Connect's history permission", () => {
  const weights = (): HealthConnectRecordResult[] =>
    [5, 25, 45].map((d) => ({ recordType: 'Weight', time: iso(NOW - d * DAY), weight: { inGrams: 70000, inKilograms: 70, inMilligrams: 0, inMicrograms: 0, inOunces: 0, inPounds: 0 }, metadata: meta(`hw-${d}`) }));

  it('is not asked for when the window is within the 30 days Health Connect reads anyway', async () => {
    const user = await world.newUser('hc-history-default');
    const store = new MemoryHealthConnect();
    store.add(...weights());
    const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthConnectSource(store.bridge), fetch: network().fetch });
    mobile.configure({ baseUrl: world.platform.baseUrl });
    const status = await mobile.connect(user.token, { resources: ['measurement'] });
    expect(store.granted).not.toContain('ReadHealthDataHistory');
    expect(status.history).toBeUndefined();
  });

  it('is asked for when historyDays reaches past the 30 days; granted, the whole window arrives', async () => {
    const user = await world.newUser('hc-history-granted');
    const store = new MemoryHealthConnect();
    store.add(...weights());
    const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthConnectSource(store.bridge), fetch: network().fetch });
    mobile.configure({ baseUrl: world.platform.baseUrl, historyDays: 60 });
    const status = await mobile.connect(user.token, { resources: ['measurement'] });
    expect(store.granted).toContain('ReadHealthDataHistory');
    expect(status.history).toMatchObject({ permission: 'granted' });
    await mobile.sync();
    const ids = (await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id).sort();
    expect(ids).toEqual(['hw-25', 'hw-5']);
    // restRecords reads ~33 days; the 45-day-old weight is read further back.
    const old = await world.api.get(`${user.path}/measurements?start_date=${iso(NOW - 50 * DAY).slice(0, 10)}&end_date=${iso(NOW - 40 * DAY).slice(0, 10)}`);
    expect(old.body.data.map((r: { log_id: string }) => r.log_id)).toEqual(['hw-45']);
  });

  it('refused: status() says from when Health Connect reads, and what is older does not arrive', async () => {
    const user = await world.newUser('hc-history-refused');
    const store = new MemoryHealthConnect();
    store.grantsHistory = false;
    store.add(...weights());
    const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthConnectSource(store.bridge), fetch: network().fetch, now: () => new Date(NOW) });
    mobile.configure({ baseUrl: world.platform.baseUrl, historyDays: 60 });
    const status = await mobile.connect(user.token, { resources: ['measurement'] });
    expect(status.history).toEqual({ from: iso(NOW - 60 * DAY), limitedFrom: iso(NOW - 30 * DAY), permission: 'unconfirmed' });
    await mobile.sync();
    const old = await world.api.get(`${user.path}/measurements?start_date=${iso(NOW - 50 * DAY).slice(0, 10)}&end_date=${iso(NOW - 40 * DAY).slice(0, 10)}`);
    expect(old.body.data).toEqual([]);
    expect((await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id).sort()).toEqual(['hw-25', 'hw-5']);
    expect(await mobile.status()).toMatchObject({ history: { permission: 'unconfirmed' } });
  });
});
