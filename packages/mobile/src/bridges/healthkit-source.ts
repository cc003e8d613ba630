/**
 * HealthKit through @kingstinct/react-native-healthkit: one anchored query per type
 * (`queryQuantitySamplesWithAnchor`, `queryCategorySamplesWithAnchor`, `queryWorkoutSamplesWithAnchor`),
 * whose `newAnchor` is the cursor and whose `deletedSamples` are the deletions. Every query is
 * limited to samples since the first sync's start (`historyDays` before connect()).
 */
import type * as HealthKit from '@kingstinct/react-native-healthkit';
import type { QuantityTypeIdentifier } from '@kingstinct/react-native-healthkit';
import { HK_QUANTITY_MAP, mapHkCategory, mapHkQuantity, mapHkWorkout } from '../mapping/healthkit';
import type { ResourceType } from '../records';
import type { ChangePage, HealthSource } from '../sync/ports';

/** The bridge functions the SDK calls; the module itself (`import * as HealthKit`) is one. */
export type HealthKitBridge = Pick<
  typeof HealthKit,
  'requestAuthorization' | 'queryQuantitySamplesWithAnchor' | 'queryCategorySamplesWithAnchor' | 'queryWorkoutSamplesWithAnchor'
>;

export const HK_SLEEP = 'HKCategoryTypeIdentifierSleepAnalysis';
export const HK_WORKOUT = 'HKWorkoutTypeIdentifier';
/** Samples per anchored query page. */
export const HK_PAGE = 5000;

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
      const toRead = feeds(resources) as Parameters<HealthKitBridge['requestAuthorization']>[0]['toRead'];
      await bridge.requestAuthorization({ toRead });
    },
    async readChanges(feed, cursor, since): Promise<ChangePage> {
      // The date filter stays on later queries too: an anchor alone would also return older samples
      // written after it (an app importing years of history).
      const base = { limit, filter: { date: { startDate: since } }, ...(cursor ? { anchor: cursor } : {}) };
      if (feed === HK_WORKOUT) {
        const r = await bridge.queryWorkoutSamplesWithAnchor(base);
        return { mapped: r.workouts.flatMap((w) => mapHkWorkout(w)), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.workouts.length + r.deletedSamples.length >= limit };
      }
      if (feed === HK_SLEEP) {
        const r = await bridge.queryCategorySamplesWithAnchor(HK_SLEEP, base);
        return { mapped: r.samples.flatMap((s) => mapHkCategory(s)), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.samples.length + r.deletedSamples.length >= limit };
      }
      const id = feed as QuantityTypeIdentifier;
      const r = await bridge.queryQuantitySamplesWithAnchor(id, { ...base, unit: HK_QUANTITY_MAP[id]!.hkUnit } as Parameters<HealthKitBridge['queryQuantitySamplesWithAnchor']>[1]);
      return { mapped: r.samples.flatMap((s) => mapHkQuantity(s)), deletedIds: r.deletedSamples.map((d) => d.uuid), cursor: r.newAnchor, more: r.samples.length + r.deletedSamples.length >= limit };
    },
  };
}
