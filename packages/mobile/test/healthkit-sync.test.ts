/**
 * The sync engine end to end on HealthKit: an in-memory HealthKit behind the bridge's functions, a
 * real platform started in-process, the user's mobile token. First sync of 30 days, incremental
 * syncs with deletions, a background wake-up, offline then online, the app killed between a
 * batch's send and its acknowledgement, 429 and 503 with Retry-After, a revoked token; every
 * record the store holds is on REST and on the stream, once.
 */
import { eventually } from '@wellstream/testing';
import { appleWatchUser, hkQuantity, memoryStorage, MemoryHealthKit, syncOnWake, UnauthorizedError, UnavailableError, WellstreamMobile, healthKitSource } from '../src';
import { network, restRecords, startWorld, World } from './sync-harness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.now();
const SINCE = NOW - 30 * DAY;
const BERLIN = 3600; // Berlin's offset throughout the last 30 days before late November (no DST change inside).
const localDay = (t: number) => new Date(t + BERLIN * 1000).toISOString().slice(0, 10);

let world: World;
const store = new MemoryHealthKit();
const storage = memoryStorage();
const net = network();
const waits: number[] = [];
let user: { uid: string; token: string; path: string };

const mobileApp = () => {
  const mobile = new WellstreamMobile({ storage, source: healthKitSource(store.bridge, { pageSize: 2000 }), fetch: net.fetch, sleep: async (ms) => void waits.push(ms), now: () => new Date(NOW) });
  mobile.configure({ baseUrl: world.platform.baseUrl, maxAttempts: 4, backoffMs: 10 });
  return mobile;
};
let mobile: WellstreamMobile;

/** What the store holds in the window, as the log_ids each resource must have on REST. */
function expected() {
  const inWindow = store.all().filter((s) => s.startDate.getTime() >= SINCE);
  const ids = (pred: (s: (typeof inWindow)[number]) => boolean) => new Set(inWindow.filter(pred).map((s) => s.uuid));
  const quantity = (s: (typeof inWindow)[number], type: string) => 'quantityType' in s && s.quantityType === type;
  const summaryDays = new Set(inWindow.filter((s) => quantity(s, 'HKQuantityTypeIdentifierStepCount') || quantity(s, 'HKQuantityTypeIdentifierActiveEnergyBurned')).map((s) => `daily-${localDay(s.startDate.getTime())}`));
  const hours = new Set([
    ...inWindow.filter((s) => quantity(s, 'HKQuantityTypeIdentifierHeartRate')).map((s) => `heart_rate-${s.startDate.toISOString().slice(0, 13)}`),
    ...inWindow.filter((s) => quantity(s, 'HKQuantityTypeIdentifierStepCount')).map((s) => `steps-${s.startDate.toISOString().slice(0, 13)}`),
  ]);
  const nights = new Set(inWindow.filter((s) => 'categoryType' in s).map((s) => `sleep-${localDay(s.startDate.getTime() - 12 * HOUR)}`));
  return {
    measurement: ids((s) => quantity(s, 'HKQuantityTypeIdentifierBodyMass')),
    nutrition: ids((s) => 'quantityType' in s && s.quantityType.startsWith('HKQuantityTypeIdentifierDietary')),
    workout: ids((s) => 'workoutActivityType' in s),
    sleep: nights,
    summary: summaryDays,
    intraday: hours,
  };
}

async function expectAllOnRestOnce(): Promise<{ log_id: string; checksum: string }[]> {
  const all: { log_id: string; checksum: string }[] = [];
  for (const [type, ids] of Object.entries(expected())) {
    const records = (await restRecords(world.api, user.path, type)).filter((r) => r.source.type === 'apple_health');
    const logIds = records.map((r) => r.log_id);
    expect({ type, count: logIds.length }).toEqual({ type, count: new Set(logIds).size });
    expect({ type, ids: new Set(logIds) }).toEqual({ type, ids });
    all.push(...records);
  }
  return all;
}

beforeAll(async () => {
  world = await startWorld('mobile-healthkit');
  user = await world.newUser('hk-user');
  // 32 days, so the first two fall outside the 30-day window; lighter than the benchmark's user.
  store.add(...appleWatchUser({ days: 32, end: new Date(NOW), hrMinutes: 30, stepMinutes: 15, workoutHrSeconds: 60 }));
  mobile = mobileApp();
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

it('connect() asks HealthKit for the types of the resources and connects Apple Health on the platform', async () => {
  const status = await mobile.connect(user.token);
  expect(store.authorized).toEqual(expect.arrayContaining(['HKQuantityTypeIdentifierBodyMass', 'HKQuantityTypeIdentifierStepCount', 'HKCategoryTypeIdentifierSleepAnalysis', 'HKWorkoutTypeIdentifier']));
  // POST /v2/mobile/sources/apple_health/connect answered: the source is connected before any upload.
  expect(status).toMatchObject({ connected: true, queueLength: 0, connectEndpoint: 'available' });
});

it('the first sync sends the last 30 days, nothing older, in batches of at most 1,000', async () => {
  const result = await mobile.sync();
  expect(result.uploaded).toBe(result.queued);
  await expectAllOnRestOnce();
  const status = await mobile.status();
  expect(status).toMatchObject({ connected: true, queueLength: 0, lastUploadAt: new Date(NOW).toISOString() });
  expect(status.resources.measurement).toMatchObject({ uploaded: expected().measurement.size });
  expect(Math.ceil(result.queued / 1000)).toBeLessThanOrEqual(result.requests);
  // A workout's heart rate comes from the samples the Watch wrote during it.
  const run = store.all().filter((s) => 'workoutActivityType' in s && s.startDate.getTime() >= SINCE).pop()!;
  const during = store.all().flatMap((s) => ('quantityType' in s && s.quantityType === 'HKQuantityTypeIdentifierHeartRate' && s.startDate >= run.startDate && s.startDate <= run.endDate ? [s.quantity] : []));
  const workout = (await restRecords(world.api, user.path, 'workout')).find((r) => r.log_id === run.uuid) as unknown as { metrics: { type: string; value: number }[] };
  expect(during.length).toBeGreaterThan(10);
  expect(workout.metrics.filter((m) => m.type.endsWith('heart_rate')).map((m) => [m.type, m.value])).toEqual([
    ['avg_heart_rate', Math.round(during.reduce((a, b) => a + b, 0) / during.length)],
    ['max_heart_rate', Math.max(...during)],
  ]);
});

it('an incremental sync sends what is new, and a deletion in the store deletes in Wellstream', async () => {
  const weights = [...expected().measurement];
  const workouts = [...expected().workout];
  const steps = store.all().filter((s) => 'quantityType' in s && s.quantityType === 'HKQuantityTypeIdentifierStepCount' && s.startDate.getTime() > NOW - 2 * DAY);
  store.delete(weights[0]);
  store.delete(workouts[0]);
  store.delete(steps[0].uuid);
  const at = new Date(NOW - 2 * HOUR).toISOString();
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 70.2, 'kg', { uuid: 'new-weight', start: at, zone: 'Europe/Berlin' }));
  const result = await mobile.sync();
  expect(result.requests).toBe(1);
  await expectAllOnRestOnce();
  const day = localDay(steps[0].startDate.getTime());
  const summary = (await restRecords(world.api, user.path, 'summary')).find((r) => r.log_id === `daily-${day}`) as unknown as { metrics: { type: string; value: number }[] };
  const stepsOfDay = store.all().filter((s) => 'quantityType' in s && s.quantityType === 'HKQuantityTypeIdentifierStepCount' && localDay(s.startDate.getTime()) === day);
  expect(summary.metrics.find((m) => m.type === 'steps')!.value).toBe(stepsOfDay.reduce((n, s) => n + ('quantity' in s ? s.quantity : 0), 0));
});

it('with nothing new, a sync costs no request', async () => {
  const before = net.requests;
  expect(await mobile.sync()).toMatchObject({ queued: 0, uploaded: 0, requests: 0 });
  expect(net.requests).toBe(before);
});

it('a background wake-up from HealthKit syncs what arrived', async () => {
  const wake = syncOnWake(mobile);
  const stop = store.onChange(() => void wake());
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 70.0, 'kg', { uuid: 'woken-weight', start: new Date(NOW - HOUR).toISOString(), zone: 'Europe/Berlin' }));
  stop();
  await eventually(async () => (await restRecords(world.api, user.path, 'measurement')).some((r) => r.log_id === 'woken-weight'));
});

it('offline: the sync fails with the queue kept and reported; online again, it is sent', async () => {
  net.offline = true;
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 69.8, 'kg', { uuid: 'offline-weight', start: new Date(NOW - 30 * 60_000).toISOString(), zone: 'Europe/Berlin' }));
  await expect(mobile.sync()).rejects.toBeInstanceOf(UnavailableError);
  expect(await mobile.status()).toMatchObject({ queueLength: 1, lastError: { code: 'unavailable' } });
  expect(waits.slice(-3)).toEqual([10, 20, 40]);
  net.offline = false;
  await mobile.sync();
  expect(await mobile.status()).toMatchObject({ queueLength: 0 });
  expect((await mobile.status()).lastError).toBeUndefined();
  await expectAllOnRestOnce();
});

it('the app killed between a batch sent and its answer: after a restart nothing is lost and nothing stored twice', async () => {
  for (let i = 0; i < 5; i++) store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 69 + i / 10, 'kg', { uuid: `killed-${i}`, start: new Date(NOW - (i + 1) * 60_000).toISOString(), zone: 'Europe/Berlin' }));
  net.killAfterSend = true;
  const posts = net.recordPosts;
  // The platform stores the batch; the app never sees the answer (killed): that engine is abandoned.
  void mobile.sync();
  await eventually(async () => net.recordPosts === posts + 1);
  // A new process: a new engine on the same storage.
  mobile = mobileApp();
  expect(await mobile.status()).toMatchObject({ queueLength: 5 });
  await mobile.sync();
  await expectAllOnRestOnce();
});

it('429 and 503 are retried after their Retry-After (seconds or a date)', async () => {
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 69.5, 'kg', { uuid: 'busy-weight', start: new Date(NOW - 20 * 60_000).toISOString(), zone: 'Europe/Berlin' }));
  waits.length = 0;
  net.injected.push({ status: 429, retryAfter: '7' }, { status: 503, retryAfter: '3' });
  await mobile.sync();
  expect(waits).toEqual([7000, 3000]);
  await expectAllOnRestOnce();
});

it('every record the store holds is on REST and on the stream, once per version', async () => {
  const rest = await expectAllOnRestOnce();
  await eventually(async () => {
    const seen = new Set(world.stream.events.filter((e) => e.event === 'data').map((e) => `${e.json().log_id}/${e.json().checksum}`));
    return rest.every((r) => seen.has(`${r.log_id}/${r.checksum}`));
  }, 20_000);
  const events = world.stream.events.filter((e) => e.event === 'data' && e.json().source?.type === 'apple_health').map((e) => `${e.json().log_id}/${e.json().checksum}`);
  expect(events.length).toBe(new Set(events).size);
});

it('a revoked token (401) stops syncing, is reported by status() and is not retried', async () => {
  expect((await world.api.delete(user.path)).status).toBe(200);
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 69.1, 'kg', { uuid: 'after-revoke', start: new Date(NOW - 10 * 60_000).toISOString(), zone: 'Europe/Berlin' }));
  const before = net.requests;
  await expect(mobile.sync()).rejects.toBeInstanceOf(UnauthorizedError);
  expect(net.requests).toBe(before + 1);
  expect(await mobile.status()).toMatchObject({ connected: false, stopped: 'unauthorized', lastError: { code: 'unauthorized' }, queueLength: 1 });
  await expect(mobile.sync()).rejects.toBeInstanceOf(UnauthorizedError);
  expect(net.requests).toBe(before + 1);
});

it('disconnect() forgets the token, the anchors and the queue', async () => {
  await mobile.disconnect();
  expect(await mobile.status()).toMatchObject({ connected: false, queueLength: 0 });
  expect([...storage.map.keys()]).toEqual([]);
});
