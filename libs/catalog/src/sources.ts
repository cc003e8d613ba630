/**
 * The source catalog: every data source a user can connect, how it connects, and what it
 * provides. The marketplace lists it; records validates `source` filters and ingestion against it.
 */
import type { ResourceType } from './resources';

export type SourceKind = 'cloud' | 'mobile' | 'demo';

export interface SourceDefinition {
  type: string;
  name: string;
  kind: SourceKind;
  resources: ResourceType[];
  /** Brand-free initials and colour for the marketplace tile (no external assets). */
  initials: string;
  color: string;
}

const s = (type: string, name: string, kind: SourceKind, resources: ResourceType[], initials: string, color: string): SourceDefinition => ({
  type,
  name,
  kind,
  resources,
  initials,
  color,
});

export const SOURCES: SourceDefinition[] = [
  s('demo', 'Demo source', 'demo', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'D', '#6b7280'),
  s('withings', 'Withings', 'cloud', ['measurement', 'sleep', 'summary', 'workout', 'intraday'], 'Wi', '#1f2a44'),
  s('oura', 'Oura', 'cloud', ['sleep', 'summary', 'workout', 'intraday'], 'Ou', '#2d2d2d'),
  s('polar', 'Polar Flow', 'cloud', ['measurement', 'sleep', 'summary', 'workout', 'intraday'], 'Po', '#d10027'),
  s('dexcom', 'Dexcom', 'cloud', ['cgm', 'measurement'], 'Dx', '#58a618'),
  s('strava', 'Strava', 'cloud', ['workout'], 'St', '#fc4c02'),
  s('whoop', 'WHOOP', 'cloud', ['measurement', 'sleep', 'summary', 'workout'], 'Wh', '#111111'),
  s('apple_health', 'Apple Health', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'AH', '#ff2d55'),
  s('health_connect', 'Health Connect', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'HC', '#4285f4'),
  s('samsung_health', 'Samsung Health', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'SH', '#1428a0'),
];

const byType = new Map(SOURCES.map((d) => [d.type, d]));

export const SOURCE_TYPES = SOURCES.map((d) => d.type);
/** Cloud sources connected through the sources service (OAuth, webhooks, polling). */
export const PROVIDER_SOURCE_TYPES = ['oura', 'withings', 'dexcom', 'polar', 'whoop', 'strava'] as const;
export const sourceDefinition = (type: string): SourceDefinition | undefined => byType.get(type);
