/**
 * The notifications service's composition root: picks adapters from config, wires use cases,
 * starts HTTP, the event consumer (records → pending items) and the push scheduler
 * (pending items → batches → delivery tries).
 */
import { parseGatewayKeys } from '@wellstream/config';
import { startHttpServer, ServiceMetrics } from '@wellstream/http';
import { createLogger, setLogLevel } from '@wellstream/logging';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import type { Subscription } from '@wellstream/bus';
import { consumerGauges, customerEventsTopic } from '@wellstream/contracts';
import { createNotificationsApp } from './app';
import { NotificationsConfig, pushSettings } from './config';
import { TargetRepository } from './targets/target.repository';
import { BatchRepository } from './batches/batch.repository';
import { PendingItemRepository } from './batches/pending-item.repository';
import { PushOrganizationRepository } from './batches/push-organization.repository';
import { startCollectingRecords } from './batches/collect-record/collect-records.consumer';
import { PushScheduler } from './batches/deliver-batch/push-scheduler';
import { HttpPushSender } from './delivery/push-sender.http';
import { OrganizationOwnerRepository } from './organizations/organization-owner.repository';
import { consumeOrganizationOwners } from './organizations/organization-events.consumer';
import { countingSender } from './delivery/push-sender.metrics';

export async function composeNotifications(config: NotificationsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  setLogLevel(config.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger('notifications');
  const settings = pushSettings(config);
  const policy = { allowPrivate: settings.allowPrivateTargets };
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'notifications', logger, shared);
  let subscription: Subscription | undefined;
  let ownersSubscription: Subscription | undefined;
  let scheduler: PushScheduler | undefined;
  let http: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  let handler: RunningService['handler'];
  const stop = async () => {
    await subscription?.stop();
    await ownersSubscription?.stop();
    await scheduler?.stop();
    await http?.close();
    await store.close();
    if (!shared.eventLog) await eventLog.close();
  };
  const metrics = new ServiceMetrics('notifications');
  for (const g of consumerGauges('notifications.')) metrics.gauge(g.name, g.help, g.read, g.labels);
  try {
    const [targets, batches, pendingItems, organizations] = await Promise.all([
      TargetRepository.open(store),
      BatchRepository.open(store),
      PendingItemRepository.open(store),
      PushOrganizationRepository.open(store),
    ]);
    const sched = new PushScheduler({
      targets,
      batches,
      pendingItems,
      organizations,
      sender: countingSender(new HttpPushSender({ timeoutMs: settings.timeoutMs, policy }), metrics),
      settings,
      logger,
    });
    scheduler = sched;
    const organizationOwners = await OrganizationOwnerRepository.open(store);
    ownersSubscription = await consumeOrganizationOwners(eventLog, organizationOwners, logger);
    const app = createNotificationsApp({
      gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
      organizationOwners,
      logger,
      health: { store: () => store.healthy(), event_log: () => eventLog.healthy() },
      metrics,
      targets,
      batches,
      policy,
      dropPendingItems: (organizationId) => pendingItems.removeOrganization(organizationId),
      wake: () => sched.wake(),
    });
    handler = app;
    http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
    await eventLog.ensureTopic(customerEventsTopic.spec);
    subscription = await startCollectingRecords(eventLog, {
      targets,
      pendingItems,
      logger,
      onQueued: (organizationId) => sched.noteQueued(organizationId),
    });
    sched.start();
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  const server = http;
  return {
    name: 'notifications',
    handler,
    url: server.url,
    port: server.port,
    stop,
  };
}
