/**
 * A provider's notification: verified and parsed by the provider's adapter, then each change
 * becomes a queued live fetch for the connection it names (of the object it names, when the
 * adapter can fetch one, else of a window). A notification that the user withdrew our access ends
 * the connection at once when it was verified; from a provider that signs nothing, only once the
 * provider refuses the user's token (the live job asks it). A notification that the user changed
 * their permissions has the live job ask the provider which are missing now. Nothing is fetched while the provider
 * waits for our answer: the caller answers 2xx as soon as the work is queued. A notification for
 * a provider user we do not know is answered 2xx too (the provider would only retry it) and logged.
 * A delivery the provider identifies (WHOOP's trace_id) is acted on once: its repeats are answered
 * 2xx and dropped, whichever replica they reach.
 */
import { sourceNotOffered } from '../connections/source.errors';
import type { DeletionStubInput } from '@wellstream/contracts';
import type { InboundRequest, ProviderNotification } from '../providers/provider.port';
import { recordMessages } from '../sync/publish-records';
import { endConnection, EndConnectionDeps } from '../connections/disconnect.usecase';
import type { SyncJobRepository } from '../sync/sync-job.repository';
import type { AppSubscriptionSecrets } from './app-subscription-secrets';
import type { NotificationReceipts } from './notification-receipts.repository';

export interface ReceiveNotificationDeps extends EndConnectionDeps {
  jobs: SyncJobRepository;
  subscriptionSecrets: AppSubscriptionSecrets;
  /** Provider deliveries already acted on (their repeats are dropped), across replicas. */
  receipts: NotificationReceipts;
}

/** When a notification gives no range: re-read the last two days of that resource. */
const DEFAULT_WINDOW_MS = 2 * 24 * 3600 * 1000;

export async function receiveNotification(deps: ReceiveNotificationDeps, type: string, req: InboundRequest): Promise<{ queued: number; unknown: number; repeated: number }> {
  const provider = deps.registry.get(type);
  if (!provider?.adapter.parseNotification) throw sourceNotOffered(type);
  // Throws ProviderError bad_signature / bad_request: the route answers 401 / 400.
  const notifications = provider.adapter.parseNotification(provider.settings, req, { secrets: await deps.subscriptionSecrets.of(type) });
  const now = deps.clock.now();
  let queued = 0;
  let unknown = 0;
  let repeated = 0;
  const taken: NonNullable<ProviderNotification['delivery']>[] = [];
  for (const n of notifications) {
    if (n.delivery && (await deps.receipts.seen(type, n.delivery.id, now))) {
      repeated++;
      deps.logger.info('dropped a repeated provider notification', { source_type: type, delivery_id: n.delivery.id, resource: n.resource });
      continue;
    }
    if (n.delivery) taken.push(n.delivery);
    const c = await deps.connections.byProviderUser(type, n.providerUserId);
    if (c && c.status === 'auth_expired' && n.deauthorized) {
      // The provider refused the grant already, which is all the unsigned notice's check would ask.
      await endConnection(deps, c, n.reason ?? 'access withdrawn at the provider', { revoke: false });
      queued++;
      continue;
    }
    if (!c || c.status === 'auth_expired') {
      unknown++;
      deps.logger.info('notification for a provider user with no active connection', { source_type: type, provider_user_id: n.providerUserId, resource: n.resource });
      continue;
    }
    if (n.deauthorized) {
      const reason = n.reason ?? 'access withdrawn at the provider';
      if (provider.adapter.unsignedNotifications) {
        // Anyone could have sent it: the sync job asks the provider with the user's token first.
        await deps.jobs.schedule(c._id, 'live', now, undefined, { access_check: { reason } });
      } else {
        // A verified notification: the user withdrew our access at the provider, nothing left to revoke there.
        await endConnection(deps, c, reason, { revoke: false });
      }
      queued++;
      continue;
    }
    if (n.permissionsChanged) {
      // Unsigned, and only a pointer: the live job asks the provider with the user's token.
      if (!provider.adapter.fetchMissingPermissions) continue;
      await deps.jobs.schedule(c._id, 'live', now, undefined, { permissions_check: true });
      queued++;
      continue;
    }
    if (!provider.adapter.resources.some((r) => r.name === n.resource)) {
      deps.logger.info('notification for a resource we do not sync', { source_type: type, resource: n.resource });
      continue;
    }
    if (n.deleted && n.objectId) {
      // The object is gone at the provider: a fetch would not show it, so say so directly.
      const spec = provider.adapter.resources.find((r) => r.name === n.resource)!;
      const stubs = (n.deletedLogIds ?? [n.objectId]).map((logId): DeletionStubInput => ({ type: spec.recordTypes[0], source: { type }, log_id: logId, deleted: true }));
      await deps.outbox.write(recordMessages(deps.outbox, c, stubs, now.toISOString()), async () => undefined);
      queued++;
      continue;
    }
    if (n.objectId && provider.adapter.fetchObject) {
      // The notification names the object: fetch that one, however old it is.
      await deps.jobs.schedule(c._id, 'live', now, undefined, { objects: { [n.resource]: [n.objectId] } });
      queued++;
      continue;
    }
    const window = n.window ?? { start: new Date(now.getTime() - DEFAULT_WINDOW_MS), end: now };
    // A window that ends now would miss an item stamped a moment later: fetch up to a minute ahead.
    const end = new Date(Math.max(window.end.getTime(), Math.min(window.end.getTime() + 60_000, now.getTime() + 60_000)));
    await deps.jobs.schedule(c._id, 'live', now, { [n.resource]: { start: window.start.toISOString(), end: end.toISOString() } });
    queued++;
  }
  // Only once everything the delivery asked for is queued (or known to need nothing).
  for (const d of taken) await deps.receipts.remember(type, d.id, d.expiresAt);
  return { queued, unknown, repeated };
}
