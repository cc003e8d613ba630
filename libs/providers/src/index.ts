/**
 * The cloud providers, each defined once in its own file. Everything else that names provider
 * types (the catalog's source list, the endpoint declarations and so the gateway's routing, the
 * sources service's configuration and registry) is derived from PROVIDERS.
 *
 * Adding a provider adds its file and one line here: the line fixes its place in PROVIDER_TYPES
 * (the order of the published OpenAPI enum) and gives the typed `ProviderType` union, which a
 * directory scan at run time could not.
 */
import { dexcom } from './dexcom';
import { garmin } from './garmin';
import { googleHealth } from './google_health';
import { oura } from './oura';
import { polar } from './polar';
import { strava } from './strava';
import { suunto } from './suunto';
import { whoop } from './whoop';
import { withings } from './withings';

export const PROVIDERS = [oura, withings, dexcom, polar, whoop, strava, googleHealth, garmin, suunto] as const;

export type ProviderType = (typeof PROVIDERS)[number]['type'];
export const PROVIDER_TYPES: readonly ProviderType[] = PROVIDERS.map((p) => p.type);

const byType = new Map<string, (typeof PROVIDERS)[number]>(PROVIDERS.map((p) => [p.type, p]));
export const isProviderType = (t: string): t is ProviderType => byType.has(t);
export const providerDefinition = <T extends ProviderType>(type: T): Extract<(typeof PROVIDERS)[number], { type: T }> => byType.get(type) as Extract<(typeof PROVIDERS)[number], { type: T }>;

export * from './provider-definition';
