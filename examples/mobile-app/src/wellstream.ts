/**
 * The one WellstreamMobile of the app: HealthKit on iOS, Health Connect on Android, AsyncStorage
 * for the cursors and the upload queue (they survive restarts), and background wiring.
 */
import AsyncStorage from '@react-native-async-storage/async-storage';
import * as HealthKit from '@kingstinct/react-native-healthkit';
import { UpdateFrequency } from '@kingstinct/react-native-healthkit';
import * as HealthConnect from 'react-native-health-connect';
import { Platform } from 'react-native';
import { healthConnectSource, healthKitSource, syncOnWake, WellstreamMobile, type StoragePort } from '@wellstream/mobile';

/** The customer's API (its `base_url`). */
export const BASE_URL = 'https://api.example.com/v2';

const storage: StoragePort = {
  getItem: (k) => AsyncStorage.getItem(k),
  setItem: (k, v) => AsyncStorage.setItem(k, v),
  removeItem: (k) => AsyncStorage.removeItem(k),
  getAllKeys: () => AsyncStorage.getAllKeys(),
};

export const wellstream = new WellstreamMobile({
  storage,
  source: Platform.OS === 'ios' ? healthKitSource(HealthKit) : healthConnectSource(HealthConnect),
});
wellstream.configure({ baseUrl: BASE_URL, historyDays: 30 });

export const wake = syncOnWake(wellstream, (error) => console.warn('wellstream sync', error));

/** iOS: HealthKit wakes the app when these types change (needs the background-delivery entitlement). */
const OBSERVED = ['HKQuantityTypeIdentifierStepCount', 'HKQuantityTypeIdentifierHeartRate', 'HKQuantityTypeIdentifierBodyMass', 'HKCategoryTypeIdentifierSleepAnalysis', 'HKWorkoutTypeIdentifier'] as const;

export async function startBackgroundSync(): Promise<() => void> {
  if (Platform.OS === 'ios') {
    const subscriptions: { remove: () => boolean }[] = [];
    for (const type of OBSERVED) {
      await HealthKit.enableBackgroundDelivery(type, UpdateFrequency.hourly);
      subscriptions.push(HealthKit.subscribeToChanges(type, () => void wake()));
    }
    return () => subscriptions.forEach((s) => s.remove());
  }
  // Android has no change callback from Health Connect: sync when the app comes to the foreground
  // and from a periodic task (react-native-background-fetch, expo-background-task, WorkManager)
  // that calls `wake()`; here a timer while the app runs.
  const timer = setInterval(() => void wake(), 15 * 60_000);
  return () => clearInterval(timer);
}
