/**
 * The JSON representation of a marketplace (published as `MarketplaceView`): who it is for, the
 * sources the user can connect here with each one's connection state, and the URLs of every
 * action. Listed: the demo source, the phone apps, and the cloud sources this deployment offers
 * (the sources service has their credentials); a cloud source the user has connected stays listed
 * after it stops being offered, so it can still be seen and disconnected.
 *
 * One definition for its two renderers: the users service draws the marketplace page from its
 * copy of the user's connections, and the sources service, which owns the connections, answers a
 * Connect or Disconnect with the marketplace after the change from its own.
 */
import { SOURCES, SourceDefinition } from '@wellstream/catalog';
import type { SourceProviderEvent } from './source-connections';
import type { ConnectedSourceSnapshot, UserSnapshot } from './user-events';

/** What the marketplace shows of a provider source (the `source-providers` topic's entry). */
export type SourceOffer = Omit<SourceProviderEvent, 'type'>;

/** The user fields the marketplace shows. */
export type MarketplaceUser = Pick<UserSnapshot, 'uid' | 'status' | 'timezone' | 'timezone_origin' | 'country_code'>;

export const offeredProviders = (providers: SourceOffer[]): Map<string, SourceOffer> => new Map(providers.filter((p) => p.offered).map((p) => [p.source_type, p]));

/**
 * Where the page's provider form posts end: Connect and Reconnect are answered by a redirect to
 * the provider's sign-in page (its Content-Security-Policy must allow those origins).
 */
export const signInOrigins = (providers: SourceOffer[]): string[] =>
  [...offeredProviders(providers).values()].map((p) => p.authorize_origin).filter((o): o is string => o !== null);

const listed = (s: SourceDefinition, offered: Map<string, SourceOffer>, connected: Map<string, ConnectedSourceSnapshot>) =>
  s.kind !== 'cloud' || offered.has(s.type) || connected.has(s.type);

export function marketplaceView(user: MarketplaceUser, url: string, sources: readonly ConnectedSourceSnapshot[], providers: SourceOffer[]) {
  const connected = new Map(sources.map((s) => [s.type, s]));
  const offered = offeredProviders(providers);
  return {
    user: {
      uid: user.uid,
      status: user.status,
      location: { timezone: user.timezone, timezone_origin: user.timezone_origin, country_code: user.country_code },
    },
    marketplace: { url },
    sources: SOURCES.filter((s) => listed(s, offered, connected)).map((s) => {
      const entry = connected.get(s.type);
      const provider = offered.get(s.type);
      const status = entry ? (entry.status ?? 'active') : null;
      return {
        type: s.type,
        name: s.name,
        kind: s.kind,
        resources: s.resources,
        initials: s.initials,
        color: s.color,
        connected: entry !== undefined,
        connected_at: entry?.connected_at ?? null,
        /** null while not connected. */
        status,
        last_synced_at: entry?.last_synced_at ?? null,
        backfill: entry?.backfill ? { ...entry.backfill } : null,
        /** The data permissions the user refused at the provider's consent, when there are some. */
        ...(entry?.missing_permissions?.length ? { missing_permissions: [...entry.missing_permissions] } : {}),
        /** Phone sources: what the app's uploads have brought, once there was one. */
        ...(entry?.uploaded ? { uploaded: { resources: [...entry.uploaded.resources], last_record_at: entry.uploaded.last_record_at } } : {}),
        /** How far back the provider lets the platform read, when it documents a limit (cloud sources). */
        history_days: provider?.history_days ?? null,
        /** What the user should know about how it syncs, in words (e.g. polling only). */
        note: provider?.note ?? null,
        actions: {
          // A phone source connects from the customer's app (its first upload, or the app's connect), never here.
          ...(s.kind === 'mobile' ? {} : { connect: `${url}/sources/${s.type}/connect` }),
          ...(status === 'auth_expired' || entry?.missing_permissions?.length ? { reconnect: `${url}/sources/${s.type}/reconnect` } : {}),
          disconnect: `${url}/sources/${s.type}/disconnect`,
        },
      };
    }),
    actions: { timezone: `${url}/timezone` },
  };
}

export type MarketplaceView = ReturnType<typeof marketplaceView>;
