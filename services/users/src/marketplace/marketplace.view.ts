/**
 * The JSON representation of a marketplace (GET with Accept: application/json): who it is for,
 * the source catalog with each source's connection state, and the URLs of every action.
 */
import { SOURCES, SourceDefinition } from '@wellstream/catalog';
import type { User } from '../users/user';

/** Cloud and mobile sources go through a (simulated) provider consent step; the demo source does not. */
export const needsConsent = (source: SourceDefinition) => source.kind !== 'demo';

export function marketplaceView(user: User, url: string) {
  const connected = new Map(user.sources.map((s) => [s.type, s.connected_at]));
  return {
    user: {
      uid: user.uid,
      status: user.status,
      location: { timezone: user.timezone, timezone_origin: user.timezone_origin, country_code: user.country_code },
    },
    marketplace: { url },
    sources: SOURCES.map((s) => ({
      type: s.type,
      name: s.name,
      kind: s.kind,
      resources: s.resources,
      initials: s.initials,
      color: s.color,
      connected: connected.has(s.type),
      connected_at: connected.get(s.type) ?? null,
      consent_required: needsConsent(s),
      actions: {
        connect: `${url}/sources/${s.type}/connect`,
        disconnect: `${url}/sources/${s.type}/disconnect`,
        ...(needsConsent(s) ? { consent: `${url}/sources/${s.type}/consent` } : {}),
      },
    })),
    actions: { timezone: `${url}/timezone` },
  };
}

export type MarketplaceView = ReturnType<typeof marketplaceView>;
