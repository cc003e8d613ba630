/**
 * The source catalog: every data source a user can connect, how it connects, and what it
 * provides. The marketplace lists it; records validates `source` filters and ingestion against it.
 */
import { PROVIDERS, PROVIDER_TYPES, type ProviderDefinition } from '@wellstream/providers';
import { RESOURCE_TYPES, type ResourceType } from './resources';

export type SourceKind = 'cloud' | 'mobile' | 'demo';

export interface SourceDefinition {
  type: string;
  name: string;
  kind: SourceKind;
  resources: ResourceType[];
  /** Brand-free initials and colour for the marketplace tile (no external assets). */
  initials: string;
  color: string;
  /** A cloud source that is an app rather than a device (libs/providers); absent for the others. */
  app?: true;
}

const s = (type: string, name: string, kind: SourceKind, resources: ResourceType[], initials: string, color: string): SourceDefinition => ({
  type,
  name,
  kind,
  resources,
  initials,
  color,
});

const resourcesOf = (p: ProviderDefinition): ResourceType[] =>
  p.resources.map((r) => {
    if (!(RESOURCE_TYPES as readonly string[]).includes(r)) throw new Error(`provider ${p.type}: unknown resource type ${r}`);
    return r as ResourceType;
  });

/** The cloud providers (libs/providers), in their marketplace order. */
const cloudSources = [...PROVIDERS]
  .sort((a, b) => a.tile.position - b.tile.position)
  .map((p): SourceDefinition => ({ ...s(p.type, p.name, p.kind, resourcesOf(p), p.tile.initials, p.tile.color), ...(p.app ? { app: true as const } : {}) }));

export const SOURCES: SourceDefinition[] = [
  s('demo', 'Demo source', 'demo', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'D', '#6b7280'),
  ...cloudSources,
  s('apple_health', 'Apple Health', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'AH', '#ff2d55'),
  s('health_connect', 'Health Connect', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'HC', '#4285f4'),
  s('samsung_health', 'Samsung Health', 'mobile', ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'], 'SH', '#1428a0'),
];

const byType = new Map(SOURCES.map((d) => [d.type, d]));

export const SOURCE_TYPES = SOURCES.map((d) => d.type);
/** Cloud sources connected through the sources service (OAuth, webhooks, polling). */
export const PROVIDER_SOURCE_TYPES = PROVIDER_TYPES;
export const sourceDefinition = (type: string): SourceDefinition | undefined => byType.get(type);
