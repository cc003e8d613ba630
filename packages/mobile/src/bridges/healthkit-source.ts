/**
 * HealthKit through @kingstinct/react-native-healthkit: one anchored query per type
 * (`queryQuantitySamplesWithAnchor`, `queryCategorySamplesWithAnchor`, `queryWorkoutSamplesWithAnchor`),
 * whose `newAnchor` is the cursor and whose `deletedSamples` are the deletions. Every query is
 * limited to samples since the first sync's start (`historyDays` before connect()). A workout's
 * heart rate is read for its window with `queryQuantitySamples`, whether or not those samples were synced.
 */
import type * as HealthKit from '@kingstinct/react-native-healthkit';
import type { QuantityTypeIdentifier } from '@kingstinct/react-native-healthkit';
import { mapEach } from '../mapping/entries';
import { HK_QUANTITY_MAP, mapHkCategory, mapHkQuantity, mapHkWorkout } from '../mapping/healthkit';
import type { ResourceType } from '../records';
import type { ChangePage, HealthSource } from '../sync/ports';

/** The bridge functions the SDK calls; the module itself (`import * as HealthKit`) is one. */
export type HealthKitBridge = Pick<
  typeof HealthKit,
  'requestAuthorization' | 'queryQuantitySamplesWithAnchor' | 'queryCategorySamplesWithAnchor' | 'queryWorkoutSamplesWithAnchor' | 'queryQuantitySamples'
>;

export const HK_SLEEP = 'HKCategoryTypeIdentifierSleepAnalysis';
export const HK_WORKOUT = 'HKWorkoutTypeIdentifier';
const HK_HEART_RATE = 'HKQuantityTypeIdentifierHeartRate';
/** Samples per anchored query page. */
export const HK_PAGE = 1000;

const RESOURCE_OF_QUANTITY: Record<string, ResourceType> = { measurement: 'measurement', nutrition: 'nutrition', summary: 'summary', intraday: 'intraday' };

export function healthKitSource(bridge: HealthKitBridge, options: { pageSize?: number } = {}): HealthSource {
  const limit = options.pageSize ?? HK_PAGE;
  const feeds = (resources: readonly ResourceType[]) => {
    const quantity = (Object.keys(HK_QUANTITY_MAP) as QuantityTypeIdentifier[]).filter((id) => resources.includes(RESOURCE_OF_QUANTITY[HK_QUANTITY_MAP[id]!.to]));
    return [...quantity, ...(resources.includes('sleep') ? [HK_SLEEP] : []), ...(resources.includes('workout') ? [HK_WORKOUT] : [])];
  };
  return {
    store: 'apple_health',
    feeds,
    resourceOf: (feed) => (feed === HK_SLEEP ? 'sleep' : feed === HK_WORKOUT ? 'workout' : RESOURCE_OF_QUANTITY[HK_QUANTITY_MAP[feed as QuantityTypeIdentifier]?.to ?? 'measurement']),
    async requestPermissions(resources) {
      // A workout's heart rate is read from the store, so workouts need heart rate even without intraday.
      const types = [...new Set([...feeds(resources), ...(resources.includes('workout') ? [HK_HEART_RATE] : [])])];
      await bridge.requestAuthorization({ toRead: types as Parameters<HealthKitBridge['requestAuthorization']>[0]['toRead'] });
    },
    async heartRateBetween(start, end) {
      const samples = await bridge.queryQuantitySamples(HK_HEART_RATE, { limit: 0, unit: 'count/min', filter: { date: { startDate: start, endDate: end } } });
      return samples.map((s) => ({ bpm: s.quantity, app: s.sourceRevision.source.bundleIdentifier }));
    },
    async readChanges(feed, cursor, since): Promise<ChangePage> {
      // The date filter stays on later queries too: an anchor alone would also return older samples
      // written after it (an app importing years of history).
      const base = { limit, filter: { date: { startDate: since } }, ...(cursor ? { anchor: cursor } : {}) };
      if (feed === HK_WORKOUT) {
        const r = await bridge.queryWorkoutSamplesWithAnchor(base);
        return { mapped: mapEach(r.workouts, mapHkWorkout), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.workouts.length + r.deletedSamples.length >= limit };
      }
      if (feed === HK_SLEEP) {
        const r = await bridge.queryCategorySamplesWithAnchor(HK_SLEEP, base);
        return { mapped: mapEach(r.samples, mapHkCategory), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.samples.length + r.deletedSamples.length >= limit };
      }
      const id = feed as QuantityTypeIdentifier;
      const r = await bridge.queryQuantitySamplesWithAnchor(id, { ...base, unit: HK_QUANTITY_MAP[id]!.hkUnit } as Parameters<HealthKitBridge['queryQuantitySamplesWithAnchor']>[1]);
      return { mapped: mapEach(r.samples, mapHkQuantity), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.samples.length + r.deletedSamples.length >= limit };
    },
  };
}
