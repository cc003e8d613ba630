/**
 * The marketplace as a Connect or Disconnect of the demo source or a phone app answers it to a
 * script (JSON): the one view the users service's page also shows (@wellstream/contracts
 * `marketplaceView`), drawn here from this service's own connections, which the page's copy follows.
 */
import { SOURCE_TYPES } from '@wellstream/catalog';
import { ConnectedSourceSnapshot, MarketplaceView, marketplaceView, SourceOffer } from '@wellstream/contracts';
import { backfillProgress, Connection, connectionId } from '../connections/connection';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { ProjectedUser } from '../users/user-projection';

export interface MarketplaceOfDeps {
  connections: ConnectionRepository;
  /** The provider sources and whether this deployment offers them (what `source-providers` announces). */
  offers(): SourceOffer[];
}

/** A connection as the user's `sources` entry shows it (the users service's copy holds the same). */
export function sourceEntry(c: Connection): ConnectedSourceSnapshot {
  return {
    type: c.source_type,
    connected_at: c.connected_at,
    status: c.status,
    last_synced_at: c.last_synced_at,
    backfill: backfillProgress(c),
    ...(c.missing_permissions?.length ? { missing_permissions: [...c.missing_permissions] } : {}),
    ...(c.uploaded ? { uploaded: { resources: [...c.uploaded.resources], last_record_at: c.uploaded.last_record_at } } : {}),
  };
}

export async function marketplaceOf(deps: MarketplaceOfDeps, user: ProjectedUser, url: string): Promise<MarketplaceView> {
  const mine = await deps.connections.byIds(SOURCE_TYPES.map((type) => connectionId(user._id, type)));
  const shown = { uid: user.uid, status: user.status, timezone: user.timezone, timezone_origin: user.timezone_origin ?? 'profile', country_code: user.country_code ?? null };
  return marketplaceView(shown, url, mine.map(sourceEntry), deps.offers());
}
