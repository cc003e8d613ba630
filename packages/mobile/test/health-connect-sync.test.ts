/**
 * The sync engine end to end on Health Connect (an in-memory Health Connect behind the bridge's
 * functions, a real platform in-process): the first read from a change token, changes and
 * deletions through the token, Samsung Health's records as `samsung_health`; "not twice" for an
 * app whose cloud source is connected; a source disconnected on the marketplace (422) stops.
 */
import type { HealthConnectRecordResult } from 'react-native-health-connect';
import { healthConnectSource, healthKitSource, hkQuantity, memoryStorage, MemoryHealthConnect, MemoryHealthKit, SourceDisconnectedError, WellstreamMobile } from '../src';
import { OURA_REVISION } from './fixtures/healthkit-samples';
import { meta } from './fixtures/health-connect-records';
import { network, restRecords, startWorld, World } from './sync-harness';

const DAY = 86_400_000;
const NOW = Date.now();
const iso = (t: number) => new Date(t).toISOString();

let world: World;
beforeAll(async () => {
  world = await startWorld('mobile-health-connect');
}, 120_000);
afterAll(async () => {
  await world?.stop();
});

function days(n: number): HealthConnectRecordResult[] {
  const out: HealthConnectRecordResult[] = [];
  for (let d = n; d >= 1; d--) {
    const t = NOW - d * DAY;
    const samsung = d % 2 === 0;
    out.push({ recordType: 'Weight', time: iso(t), zoneOffset: { id: '+01:00', totalSeconds: 3600 }, weight: { inGrams: 71000, inKilograms: 71, inMilligrams: 71e6, inMicrograms: 71e9, inOunces: 2504, inPounds: 156.5 }, metadata: meta(`w-${d}`, samsung ? 'com.sec.android.app.shealth' : 'com.google.android.apps.fitness') });
    out.push({ recordType: 'Steps', startTime: iso(t), endTime: iso(t + 3600_000), count: 1000 + d, metadata: meta(`s-${d}`) });
    out.push({ recordType: 'SleepSession', startTime: iso(t - 8 * 3600_000), endTime: iso(t - 3600_000), stages: [{ startTime: iso(t - 8 * 3600_000), endTime: iso(t - 4 * 3600_000), stage: 5 }, { startTime: iso(t - 4 * 3600_000), endTime: iso(t - 3600_000), stage: 6 }], metadata: meta(`n-${d}`) });
  }
  return out;
}

it('first sync, changes and deletions through the change token; Samsung Health records are samsung_health', async () => {
  const user = await world.newUser('hc-user');
  const store = new MemoryHealthConnect();
  store.add(...days(5));
  const net = network();
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthConnectSource(store.bridge, { pageSize: 4 }), fetch: net.fetch, sleep: async () => undefined });
  mobile.configure({ baseUrl: world.platform.baseUrl });
  await mobile.connect(user.token, { resources: ['measurement', 'sleep', 'summary'] });
  expect(store.granted).toEqual(expect.arrayContaining(['Weight', 'SleepSession', 'Steps']));
  expect(store.granted).not.toContain('ExerciseSession');
  await mobile.sync();
  const weights = await restRecords(world.api, user.path, 'measurement');
  expect(weights.map((r) => `${r.source.type}:${r.log_id}`).sort()).toEqual(['samsung_health:w-2', 'samsung_health:w-4', 'health_connect:w-1', 'health_connect:w-3', 'health_connect:w-5'].sort());
  expect((await restRecords(world.api, user.path, 'sleep')).map((r) => r.log_id).sort()).toEqual(['n-1', 'n-2', 'n-3', 'n-4', 'n-5']);

  store.delete('w-2');
  store.delete('n-3');
  store.add(...days(0), { recordType: 'Weight', time: iso(NOW - 3600_000), weight: { inGrams: 70500, inKilograms: 70.5, inMilligrams: 0, inMicrograms: 0, inOunces: 0, inPounds: 0 }, metadata: meta('w-new') });
  const result = await mobile.sync();
  expect(result.requests).toBe(1);
  expect((await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id).sort()).toEqual(['w-1', 'w-3', 'w-4', 'w-5', 'w-new']);
  expect((await restRecords(world.api, user.path, 'sleep')).map((r) => r.log_id).sort()).toEqual(['n-1', 'n-2', 'n-4', 'n-5']);
  expect(await mobile.sync()).toMatchObject({ requests: 0 });
});

describe('not twice', () => {
  const ouraNight = () => [
    hkQuantity('HKQuantityTypeIdentifierBodyMass', 70, 'kg', { uuid: 'apple-weight', start: iso(NOW - DAY) }),
    hkQuantity('HKQuantityTypeIdentifierBodyMass', 70.1, 'kg', { uuid: 'oura-weight', start: iso(NOW - DAY + 60_000), revision: OURA_REVISION }),
  ];

  it("skips what the Oura app wrote when the user's Oura cloud source is connected", async () => {
    const user = await world.newUser('nt-user');
    const store = new MemoryHealthKit();
    store.add(...ouraNight());
    const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: network().fetch });
    mobile.configure({ baseUrl: world.platform.baseUrl, connectedCloudSources: ['oura'] });
    await mobile.connect(user.token);
    expect(await mobile.sync()).toMatchObject({ skippedNotTwice: 1 });
    expect((await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id)).toEqual(['apple-weight']);
    expect(await mobile.status()).toMatchObject({ skippedNotTwice: 1 });
  });

  it('the connect endpoint can name the connected cloud sources; the setting turns skipping off', async () => {
    const user = await world.newUser('nt-user-2');
    const store = new MemoryHealthKit();
    store.add(...ouraNight());
    const net = network();
    net.injected.push({ status: 200, body: '{"connected":true,"cloud_sources":["oura"]}' });
    const skipping = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: net.fetch });
    skipping.configure({ baseUrl: world.platform.baseUrl });
    expect(await skipping.connect(user.token)).toMatchObject({ connectEndpoint: 'available', connectedCloudSources: ['oura'] });
    expect(await skipping.sync()).toMatchObject({ skippedNotTwice: 1 });

    const everything = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: network().fetch });
    everything.configure({ baseUrl: world.platform.baseUrl, connectedCloudSources: ['oura'], skipConnectedCloudSources: false });
    await everything.connect(user.token);
    expect(await everything.sync()).toMatchObject({ skippedNotTwice: 0 });
    expect((await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id).sort()).toEqual(['apple-weight', 'oura-weight']);
  });
});

it('a source disconnected on the marketplace (422 source.type disconnected) stops syncing until connect()', async () => {
  const user = await world.newUser('dc-user');
  const store = new MemoryHealthKit();
  store.add(hkQuantity('HKQuantityTypeIdentifierBodyMass', 70, 'kg', { uuid: 'dc-weight', start: iso(NOW - DAY) }));
  const net = network();
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: net.fetch });
  mobile.configure({ baseUrl: world.platform.baseUrl });
  await mobile.connect(user.token);
  // The user disconnects Apple Health on the marketplace: the platform refuses its uploads (422).
  const off = await fetch(`${user.marketplaceUrl}/sources/apple_health/disconnect`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{}' });
  expect(off.status).toBe(200);
  await expect(mobile.sync()).rejects.toBeInstanceOf(SourceDisconnectedError);
  expect(await mobile.status()).toMatchObject({ connected: false, stopped: 'source_disconnected', queueLength: 1 });
  const requests = net.requests;
  await expect(mobile.sync()).rejects.toBeInstanceOf(SourceDisconnectedError);
  expect(net.requests).toBe(requests);
  // connect() connects it again on the platform (POST /v2/mobile/sources/apple_health/connect).
  expect(await mobile.connect(user.token)).toMatchObject({ connected: true, connectEndpoint: 'available' });
  await mobile.sync();
  expect((await restRecords(world.api, user.path, 'measurement')).map((r) => r.log_id)).toEqual(['dc-weight']);
  expect((await world.api.get(user.path)).body.sources.map((s: { type: string }) => s.type)).toEqual(['apple_health']);
});
