/**
 * Ending a connection (the user's Disconnect, or the user's deletion): revoke at the provider
 * where it has an endpoint, drop the provider's per-user subscription, erase the tokens and the
 * queued work, and announce `disconnected`. A provider that is down or rate limited does not keep
 * the connection alive here: its revoke is queued with the sealed tokens and retried until the
 * provider confirms (sync/pending-revoke.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import type { ConnectionRepository } from './connection.repository';
import type { Connection } from './connection';
import { connectionMessage } from './connection-events';
import { DISCONNECTIONS_COLLECTION, DisconnectionLog } from './disconnection-log';
import { notConnected } from './source.errors';
import type { TokenSet } from '../providers/provider.port';
import { revokeOrQueue, RevokeOrQueueDeps } from '../sync/pending-revoke';

export interface EndConnectionDeps extends RevokeOrQueueDeps {
  connections: ConnectionRepository;
  disconnections: DisconnectionLog;
  registry: ProviderRegistry;
  vault: TokenVault;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** The connection's work was dropped and its subscriptions may be unneeded: look at the queue and the subscriptions now. */
  wake(): void;
}

export async function disconnect(deps: EndConnectionDeps, userId: string, type: string, reason: string): Promise<void> {
  const c = await deps.connections.byId(`${userId}:${type}`);
  if (!c) throw notConnected(type);
  await endConnection(deps, c, reason);
}

export async function endConnection(deps: EndConnectionDeps, c: Connection, reason: string, options: { revoke: boolean } = { revoke: true }): Promise<void> {
  const provider = options.revoke ? deps.registry.get(c.source_type) : undefined;
  let revoked = false;
  if (provider) {
    let tokens: TokenSet | null = null;
    try {
      tokens = JSON.parse(deps.vault.open(c.tokens)) as TokenSet;
    } catch (err) {
      deps.logger.warn('stored tokens could not be opened; nothing to revoke', { connection_id: c._id, error: err });
    }
    if (tokens && provider.adapter.userSubscriptions) {
      await provider.adapter.userSubscriptions.unsubscribe(provider.http.interactive(c._id), provider.settings, tokens.accessToken).catch((err) => deps.logger.warn('provider unsubscribe failed', { connection_id: c._id, error: err }));
    }
    // Ahead of every sync request; when the provider cannot take it now it is queued and retried.
    if (tokens) revoked = await revokeOrQueue(deps, provider, c, tokens);
  }
  const at = deps.clock.now().toISOString();
  const logId = randomUUID();
  await deps.outbox.write([connectionMessage(deps.outbox, c, 'disconnected', at, { reason }, { collection: DISCONNECTIONS_COLLECTION, filter: { _id: logId, user_id: c.user_id } })], async () => {
    await deps.disconnections.add({ _id: logId, connection_id: c._id, user_id: c.user_id, source_type: c.source_type, reason, revoked_at_provider: revoked, at });
    await deps.connections.remove(c);
  });
  await deps.jobs.removeFor(c._id);
  deps.wake();
}
