/**
 * "Not twice": Apple Health and Health Connect also hold what other companies' apps wrote there.
 * When the user has connected that company's cloud source in Wellstream, the same data already
 * arrives from the cloud, so samples written by its app are skipped. The writing app is the
 * sample's `source.device.id` (HealthKit bundle id, Health Connect data origin package).
 */
import type { Device } from '../records';

/** Writing apps (bundle ids and Android packages) of the platform's cloud sources. */
export const CLOUD_SOURCE_APPS: Record<string, readonly string[]> = {
  oura: ['com.ouraring.oura'],
  withings: ['com.withings.wiScaleNG', 'com.withings.wiscale2'],
  polar: ['fi.polar.polarflow'],
  whoop: ['com.whoop.iphone', 'com.whoop.android'],
  strava: ['com.strava.stravaride', 'com.strava'],
  dexcom: ['com.dexcom.G6', 'com.dexcom.G7', 'com.dexcom.g6', 'com.dexcom.g7'],
};

/** The cloud source whose app wrote this sample, if it is one of them. */
export function cloudSourceOf(device: Device | undefined, apps: Record<string, readonly string[]> = CLOUD_SOURCE_APPS): string | undefined {
  const id = device?.id;
  if (!id) return undefined;
  for (const [source, ids] of Object.entries(apps)) if (ids.some((a) => id === a || id.startsWith(`${a}.`))) return source;
  return undefined;
}
