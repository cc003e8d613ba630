/**
 * The notifications service on the shared skeleton: the event consumer (records → pending items),
 * the push scheduler (pending items → batches → delivery tries) and its routes.
 */
import { customerEventsTopic } from '@wellstream/contracts';
import { createStandardServiceApp, followOrganizationOwners, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { notificationsRoutes } from './app';
import { NotificationsConfig, pushSettings } from './config';
import { TargetRepository } from './targets/target.repository';
import { BatchRepository } from './batches/batch.repository';
import { PendingItemRepository } from './batches/pending-item.repository';
import { PushOrganizationRepository } from './batches/push-organization.repository';
import { startCollectingRecords } from './batches/collect-record/collect-records.consumer';
import { PushScheduler } from './batches/deliver-batch/push-scheduler';
import { HttpPushSender } from './delivery/push-sender.http';
import { countingSender } from './delivery/push-sender.metrics';
import { notificationsOpenApi } from '@wellstream/endpoints';
import { systemClock } from '@wellstream/clock';
import { answerUserDataRequests, GoneUsers } from '@wellstream/runtime';
import { WithheldItemRepository } from './withheld/withheld-item.repository';
import { withholdUser } from './withheld/withhold-gone';
import { whileNotForming } from './batches/form-batches/form-batches.usecase';
import { notificationsDataHolder } from './lifecycle/notifications-data-holder';

export function composeNotifications(config: NotificationsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const settings = pushSettings(config);
  const policy = { allowPrivate: settings.allowPrivateTargets };
  return startService({
    name: 'notifications',
    config,
    shared,
    topics: [customerEventsTopic],
    async compose(ctx) {
      const { store, eventLog, logger, metrics, lifecycle } = ctx;
      const [targets, batches, pendingItems, organizations, withheld] = await Promise.all([
        TargetRepository.open(store),
        BatchRepository.open(store),
        PendingItemRepository.open(store),
        PushOrganizationRepository.open(store),
        WithheldItemRepository.open(store),
      ]);
      const whileNotFormingOf = <T>(organizationId: string, work: () => Promise<T>) => whileNotForming({ organizations, clock: systemClock }, organizationId, work);
      // Deleted and erased users, per organization: the collector, formation and every try leave
      // their items out; once per deletion the organization's batches and queue lose them.
      const gone = await GoneUsers.start(ctx, {
        scope: 'organization',
        onGone: (user) => withholdUser({ batches, pending: pendingItems, withheld, clock: systemClock, whileNotForming: whileNotFormingOf }, user),
      });
      const scheduler = new PushScheduler({
        targets,
        batches,
        pendingItems,
        organizations,
        gone,
        withheld,
        sender: countingSender(new HttpPushSender({ timeoutMs: settings.timeoutMs, policy }), metrics),
        settings,
        logger,
        clock: systemClock,
      });
      const organizationOwners = await followOrganizationOwners(ctx);
      lifecycle.started(
        'record collection',
        await startCollectingRecords(eventLog, { targets, pendingItems, gone, logger, clock: systemClock, onQueued: (organizationId) => scheduler.noteQueued(organizationId) }),
      );
      scheduler.start();
      lifecycle.started('push scheduler', scheduler);
      // Exports and erasures of one user's push items (docs/data-lifecycle.md); its audit entries leave through an outbox.
      const outbox = await ctx.openOutbox();
      await outbox.start();
      const dataHolder = notificationsDataHolder({
        batches,
        pending: pendingItems,
        withheld,
        gone,
        whileNotForming: whileNotFormingOf,
      });
      await answerUserDataRequests(ctx, outbox, dataHolder, shared.clock ?? systemClock);
      const routes = notificationsRoutes({
        targets,
        batches,
        policy,
        clock: systemClock,
        gone,
        dropPendingItems: (organizationId) => pendingItems.removeOrganization(organizationId),
        wake: () => scheduler.wake(),
      });
      return { app: createStandardServiceApp(ctx, { openapi: notificationsOpenApi, organizationOwners, routes }) };
    },
  });
}
