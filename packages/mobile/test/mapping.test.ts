/**
 * The mapping against fixtures typed by the installed bridges: every mapped HealthKit and Health
 * Connect type, each result valid for the platform's own ingestion schema, zones on both sides of
 * a DST change, a night across midnight, a deletion.
 */
import { PROVIDER_SOURCE_TYPES } from '@wellstream/catalog';
import { validateRecords } from '@wellstream/contracts';
import { EVERY_RECORD, meta } from './fixtures/health-connect-records';
import { EVERY_QUANTITY, hkQuantity, NIGHT, OURA_REVISION, RUN } from './fixtures/healthkit-samples';
import type { Upload, WellstreamRecord } from '../src/records';
import { BucketStore } from '../src/sync/bucket-store';
import { CLOUD_SOURCE_APPS, cloudSourceOf } from '../src/sync/not-twice';
import type { StoragePort } from '../src/sync/ports';
import { bucketDeletion, buildBucket } from '../src/mapping/buckets';
import type { Mapped } from '../src/mapping/entries';
import { HC_RECORD_TYPES, mapHcRecord } from '../src/mapping/health-connect';
import { HK_QUANTITY_MAP, mapHkCategory, mapHkQuantity, mapHkWorkout } from '../src/mapping/healthkit';

function memoryStorage(): StoragePort {
  const m = new Map<string, string>();
  return { getItem: async (k) => m.get(k) ?? null, setItem: async (k, v) => void m.set(k, v), removeItem: async (k) => void m.delete(k), getAllKeys: async () => [...m.keys()] };
}

/** What the engine would upload for these mapped samples: records, then the buckets' records. */
async function uploads(mapped: Mapped[]): Promise<WellstreamRecord[]> {
  const buckets = new BucketStore(memoryStorage());
  await buckets.load();
  const out: WellstreamRecord[] = [];
  for (const m of mapped) if ('record' in m) out.push(m.record);
  else await buckets.put(m.part);
  for (const [key, bucket] of buckets.changed()) out.push(buildBucket(key, bucket)!);
  return out;
}

const valid = (records: Upload[]) => expect(() => validateRecords({ records })).not.toThrow();

describe('HealthKit mapping', () => {
  const all = (): Mapped[] => [...EVERY_QUANTITY.flatMap(mapHkQuantity), ...NIGHT.flatMap(mapHkCategory), ...mapHkWorkout(RUN)];

  it('has a fixture for every mapped quantity type, and each maps to something', () => {
    expect(EVERY_QUANTITY.map((s) => s.quantityType).sort()).toEqual(Object.keys(HK_QUANTITY_MAP).sort());
    for (const s of EVERY_QUANTITY) expect(mapHkQuantity(s).length).toBeGreaterThan(0);
  });

  it('makes records the platform accepts', async () => {
    const records = await uploads(all());
    valid(records);
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday']));
    // The check can fail: a unit the catalog does not allow is refused.
    const weight = records.find((r) => r.log_id === 'hk-body-mass')!;
    expect(() => validateRecords({ records: [{ ...weight, metrics: [{ ...weight.metrics[0], unit: 'stone' }] }] })).toThrow();
  });

  it('keeps the store id, the zone, the device and the writing app', async () => {
    const weight = (await uploads(all())).find((r) => r.log_id === 'hk-body-mass')!;
    expect(weight).toMatchObject({ type: 'measurement', utc_offset: 3600, source: { type: 'apple_health', device: { id: 'com.apple.health.8D4C3F2A', name: 'Apple Watch', model: 'Watch', manufacturer: 'Apple Inc.' } } });
    expect(weight.metrics).toEqual([{ type: 'body_weight', unit: 'kg', value: 71.4, origin: 'device' }]);
    // No zone in the sample: no offset sent, the service uses the user's profile zone.
    expect((await uploads(all())).find((r) => r.log_id === 'hk-body-fat')).not.toHaveProperty('utc_offset');
    expect((await uploads(all())).find((r) => r.log_id === 'hk-body-fat')!.metrics[0]).toMatchObject({ type: 'body_fat', unit: 'percent', value: 21.4 });
    expect((await uploads(all())).find((r) => r.log_id === 'hk-height')!.metrics[0]).toMatchObject({ origin: 'manual' });
  });

  it('sends the offset in force on each side of a DST change', () => {
    const before = mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierBodyMass', 71, 'kg', { uuid: 'a', start: '2026-03-28T07:00:00Z', zone: 'Europe/Berlin' }));
    const after = mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierBodyMass', 71, 'kg', { uuid: 'b', start: '2026-03-29T07:00:00Z', zone: 'Europe/Berlin' }));
    const autumn = mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierBodyMass', 71, 'kg', { uuid: 'c', start: '2026-11-01T15:00:00Z', zone: 'America/New_York' }));
    expect([before, after, autumn].map((m) => ('record' in m[0] ? m[0].record.utc_offset : undefined))).toEqual([3600, 7200, -18000]);
  });

  it('a local day of 23 hours on the spring change is one daily summary', async () => {
    const steps = [
      hkQuantity('HKQuantityTypeIdentifierStepCount', 100, 'count', { uuid: 's1', start: '2026-03-28T23:30:00Z', end: '2026-03-28T23:31:00Z', zone: 'Europe/Berlin' }),
      hkQuantity('HKQuantityTypeIdentifierStepCount', 200, 'count', { uuid: 's2', start: '2026-03-29T20:00:00Z', end: '2026-03-29T20:01:00Z', zone: 'Europe/Berlin' }),
    ];
    const summary = (await uploads(steps.flatMap(mapHkQuantity))).find((r) => r.type === 'summary')!;
    expect(summary).toMatchObject({ log_id: 'daily-2026-03-29', start_time: '2026-03-28T23:00:00Z', end_time: '2026-03-29T22:00:00Z', utc_offset: 7200 });
    expect(summary.metrics).toEqual([{ type: 'steps', unit: 'count', value: 300, origin: 'device' }]);
  });

  it('a night across midnight is one sleep record with its stages', async () => {
    const sleep = (await uploads(NIGHT.flatMap(mapHkCategory))).filter((r) => r.type === 'sleep');
    expect(sleep).toHaveLength(1);
    expect(sleep[0]).toMatchObject({ log_id: 'sleep-2026-03-10', start_time: '2026-03-10T22:10:00Z', end_time: '2026-03-11T05:40:00Z', utc_offset: 3600 });
    expect(sleep[0].type === 'sleep' && sleep[0].stages.map((s) => s.stage)).toEqual(['light', 'deep', 'awake', 'rem', 'light']);
    expect(sleep[0].metrics).toEqual(
      expect.arrayContaining([
        { type: 'in_bed_duration', unit: 's', value: 7.5 * 3600, origin: 'device' },
        { type: 'deep_sleep_duration', unit: 's', value: 70 * 60, origin: 'device' },
        { type: 'sleep_duration', unit: 's', value: (75 + 70 + 90 + 185) * 60, origin: 'device' },
      ]),
    );
  });

  it('a workout keeps its type, duration, energy and distance', async () => {
    const [run] = await uploads(mapHkWorkout(RUN));
    expect(run).toMatchObject({ type: 'workout', category: 'running', log_id: 'hk-run', utc_offset: 3600 });
    expect(run.type === 'workout' && run.metrics.map((m) => [m.type, m.value])).toEqual([['active_duration', 2700], ['active_energy_burned', 480], ['distance', 8200]]);
  });

  it('leaves out a value it has no metric for, or in a unit it did not ask for', () => {
    expect(mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierVO2Max', 45, 'ml/kg*min', { uuid: 'v', start: '2026-03-10T06:00:00Z' }))).toEqual([]);
    expect(mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierBodyMass', 157, 'lb', { uuid: 'w', start: '2026-03-10T06:00:00Z' }))).toEqual([]);
  });

  it('a deleted sample leaves its bucket; the last one deletes the bucket record', async () => {
    const buckets = new BucketStore(memoryStorage());
    await buckets.load();
    const [part] = mapHkQuantity(EVERY_QUANTITY.find((s) => s.uuid === 'hk-floors')!);
    if (!('part' in part)) throw new Error('floors are a part of the daily summary');
    await buckets.put(part.part);
    await buckets.flush();
    expect(await buckets.remove('hk-floors')).toBe(true);
    const [[key, bucket]] = buckets.changed();
    expect(buildBucket(key, bucket)).toBeUndefined();
    expect(bucketDeletion(key)).toEqual({ type: 'summary', source: { type: 'apple_health' }, log_id: 'daily-2026-03-10', deleted: true });
    valid([bucketDeletion(key)]);
  });

  it('knows the app of a connected cloud source', () => {
    const [m] = mapHkQuantity(hkQuantity('HKQuantityTypeIdentifierRestingHeartRate', 52, 'count/min', { uuid: 'o', start: '2026-03-10T06:00:00Z', revision: OURA_REVISION }));
    expect(cloudSourceOf('part' in m ? m.part.device : undefined)).toBe('oura');
  });

  it("lists the writing apps of every cloud source of the platform, each app under one source", () => {
    expect(Object.keys(CLOUD_SOURCE_APPS).sort()).toEqual([...PROVIDER_SOURCE_TYPES].sort());
    for (const [source, apps] of Object.entries(CLOUD_SOURCE_APPS)) for (const app of apps) expect({ app, source: cloudSourceOf({ id: app }) }).toEqual({ app, source });
    // A watch extension or a regional build extends the app's id.
    expect(cloudSourceOf({ id: 'com.garmin.connect.mobile.watch' })).toBe('garmin');
    expect(cloudSourceOf({ id: 'com.dexcom.g6.region1.mmol' })).toBe('dexcom');
    expect(cloudSourceOf({ id: 'com.stravaride' })).toBeUndefined();
  });
});

describe('Health Connect mapping', () => {
  it('has a fixture for every record type read, and each maps to something', () => {
    expect(EVERY_RECORD.map((r) => r.recordType).sort()).toEqual(Object.keys(HC_RECORD_TYPES).sort());
    for (const r of EVERY_RECORD) expect(mapHcRecord(r).length).toBeGreaterThan(0);
  });

  it('makes records the platform accepts', async () => {
    const records = await uploads(EVERY_RECORD.flatMap(mapHcRecord));
    valid(records);
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday']));
  });

  it('Samsung Health as the data origin makes a samsung_health record; metadata.id is the log_id', async () => {
    const [weight] = await uploads(mapHcRecord(EVERY_RECORD[0]));
    expect(weight).toMatchObject({ log_id: 'hc-weight', utc_offset: 3600, source: { type: 'samsung_health', device: { id: 'com.sec.android.app.shealth', manufacturer: 'Google', type: 'fitness_band' } } });
    expect(weight.metrics[0]).toMatchObject({ origin: 'manual' });
    const [fat] = await uploads(mapHcRecord(EVERY_RECORD[1]));
    expect(fat.source.type).toBe('health_connect');
    expect(fat).not.toHaveProperty('utc_offset');
  });

  it('a meal keeps its name and nutrients; a night across midnight keeps its stages', async () => {
    const records = await uploads(EVERY_RECORD.flatMap(mapHcRecord));
    const meal = records.find((r) => r.log_id === 'hc-meal')!;
    expect(meal).toMatchObject({ type: 'nutrition', name: 'Pasta', category: 'meal' });
    expect(meal.metrics.map((m) => m.type)).toEqual(['energy_consumed', 'carbohydrate', 'protein', 'dietary_fiber', 'sugars', 'saturated_fat', 'unsaturated_fat', 'sodium', 'cholesterol']);
    const sleep = records.find((r) => r.log_id === 'hc-sleep')!;
    expect(sleep.type === 'sleep' && sleep.stages.map((s) => s.stage)).toEqual(['light', 'deep', 'awake', 'rem', 'light']);
  });

  it('zone offsets on both sides of a DST change', () => {
    const weigh = (id: string, time: string, totalSeconds: number) => mapHcRecord({ recordType: 'Weight', time, zoneOffset: { id: '', totalSeconds }, weight: { inGrams: 7e4, inKilograms: 70, inMilligrams: 7e7, inMicrograms: 7e10, inOunces: 2469, inPounds: 154 }, metadata: meta(id) });
    const offsets = [weigh('a', '2026-03-28T07:00:00.000Z', 3600), weigh('b', '2026-03-29T07:00:00.000Z', 7200)].map((m) => ('record' in m[0] ? m[0].record.utc_offset : undefined));
    expect(offsets).toEqual([3600, 7200]);
  });

  it('a record without metadata.id cannot be identified and is left out', () => {
    expect(mapHcRecord({ recordType: 'BodyFat', time: '2026-03-10T06:30:00.000Z', percentage: 20 })).toEqual([]);
  });
});
