/**
 * "Not twice": Apple Health and Health Connect also hold what other companies' apps wrote there.
 * When the user has connected that company's cloud source in Wellstream, the same data already
 * arrives from the cloud, so samples written by its app are skipped. The writing app is the
 * sample's `source.device.id` (HealthKit bundle id, Health Connect data origin package).
 */
import type { Device } from '../records';

/**
 * Writing apps (iOS bundle ids and Android packages) of the platform's cloud sources. An id also
 * covers ids that extend it (`com.garmin.connect.mobile.watch`, `com.dexcom.g6.region1.mmol`).
 * Where each comes from, and which are unconfirmed, is in the README ("Not twice").
 */
export const CLOUD_SOURCE_APPS: Record<string, readonly string[]> = {
  oura: ['com.ouraring.oura'],
  withings: ['com.withings.wiScaleNG', 'com.withings.wiscale2'],
  garmin: ['com.garmin.connect.mobile', 'com.garmin.android.apps.connectmobile'],
  polar: ['fi.polar.polarflow'],
  whoop: ['com.whoop.iphone', 'com.whoop.android'],
  strava: ['com.strava.stravaride', 'com.strava'],
  suunto: ['com.sports-tracker.suunto.iphone', 'com.stt.android.suunto'],
  google_health: ['com.fitbit.FitbitMobile'],
  dexcom: ['com.dexcom.G6', 'com.dexcom.G7', 'com.dexcom.g6', 'com.dexcom.g7'],
};

const indexes = new WeakMap<Record<string, readonly string[]>, Map<string, string>>();

/** The cloud source whose app wrote this sample, if it is one of them (an app id or an id extending it). */
export function cloudSourceOf(device: Device | undefined, apps: Record<string, readonly string[]> = CLOUD_SOURCE_APPS): string | undefined {
  let id = device?.id;
  if (!id) return undefined;
  let index = indexes.get(apps);
  if (!index) {
    index = new Map(Object.entries(apps).flatMap(([source, ids]) => ids.map((a) => [a, source] as [string, string])));
    indexes.set(apps, index);
  }
  for (;;) {
    const source = index.get(id);
    if (source !== undefined) return source;
    const dot = id.lastIndexOf('.');
    if (dot <= 0) return undefined;
    id = id.slice(0, dot);
  }
}
