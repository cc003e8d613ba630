/**
 * A provider said the user changed what they share with us (Garmin's userPermissionsChange,
 * unsigned): the provider is asked which permissions are missing now, with the user's own token
 * (refreshed once if refused), and the connection's `missing_permissions` becomes that answer,
 * announced like any change of the connection (the user's `sources` entry, the marketplace). A
 * permission given back clears it. The notification's own list is never taken.
 */
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { Connection } from '../connections/connection';
import { connectionMessage } from '../connections/connection-events';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { Provider } from '../providers/provider-registry';
import type { TokenKeeper } from './token-keeper';

export interface FollowPermissionsDeps {
  keeper: TokenKeeper;
  connections: ConnectionRepository;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
}

export async function followPermissions(deps: FollowPermissionsDeps, provider: Provider, c: Connection): Promise<void> {
  const ask = provider.adapter.fetchMissingPermissions;
  if (!ask) return;
  const http = provider.http.for(c._id, 'live');
  const missing = await deps.keeper.withToken(provider, c, (accessToken) => ask(http, provider.settings, accessToken));
  const current = (await deps.connections.byId(c._id)) ?? c;
  if ((current.missing_permissions ?? []).join(' ') === missing.join(' ')) return;
  const at = deps.clock.now().toISOString();
  const { missing_permissions: _old, ...rest } = current;
  const next: Connection = { ...rest, ...(missing.length > 0 ? { missing_permissions: missing } : {}), sync_seq: current.sync_seq + 1, updated_at: at };
  const change = missing.length > 0 ? { $set: { missing_permissions: missing, updated_at: at }, $inc: { sync_seq: 1 } } : { $set: { updated_at: at }, $unset: { missing_permissions: '' as const }, $inc: { sync_seq: 1 } };
  await deps.outbox.write([connectionMessage(deps.outbox, next, 'status', at)], () => deps.connections.update(c._id, change));
  deps.logger.info('the user changed the permissions they share at the provider', { connection_id: c._id, source_type: c.source_type, missing_permissions: missing });
}
