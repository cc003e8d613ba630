/**
 * The users service's composition root: picks adapters from config, wires use cases, starts the
 * source-detection consumer and HTTP.
 */
import { parseGatewayKeys } from '@wellstream/config';
import { startHttpServer, ServiceMetrics } from '@wellstream/http';
import { createLogger, setLogLevel } from '@wellstream/logging';
import { ALL_TOPICS, consumerGauges } from '@wellstream/contracts';
import { Outbox, outboxGauges } from '@wellstream/outbox';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createUsersApp } from './app';
import type { UsersConfig } from './config';
import { UserRepository } from './users/user.repository';
import { UserEvents } from './users/user-events';
import type { UsersDeps } from './users/users.deps';
import { consumeSourceDetections } from './sources/source-detections.consumer';
import { OrganizationOwnerRepository } from './organizations/organization-owner.repository';
import { consumeOrganizationOwners } from './organizations/organization-events.consumer';

export async function composeUsers(config: UsersConfig, shared: SharedInfra = {}): Promise<RunningService> {
  setLogLevel(config.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger('users');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'users', logger, shared);
  let outbox: Outbox | undefined;
  const closeOwned = async () => {
    await outbox?.stop();
    await store.close();
    if (!shared.eventLog) await eventLog.close();
  };
  try {
    // Idempotent; lets the service start on its own (distributed) before or without the gateway.
    for (const topic of ALL_TOPICS) await eventLog.ensureTopic(topic.spec);
    const publicUrl = config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, '');
    outbox = await Outbox.open(store, { eventLog, logger, staleMs: config.WELLSTREAM_OUTBOX_STALE_MS, drainMs: config.WELLSTREAM_OUTBOX_DRAIN_MS });
    const metrics = new ServiceMetrics('users');
    for (const g of [...outboxGauges(outbox), ...consumerGauges('users.')]) metrics.gauge(g.name, g.help, g.read, 'labels' in g ? g.labels : []);
    const deps: UsersDeps = {
      repo: await UserRepository.open(store),
      events: new UserEvents(outbox),
      now: () => new Date().toISOString(),
      marketplaceUrl: (token) => `${publicUrl}/v2/marketplace/${token}`,
    };
    await outbox.start();
    const detections = await consumeSourceDetections(eventLog, deps, logger);
    const organizationOwners = await OrganizationOwnerRepository.open(store);
    const owners = await consumeOrganizationOwners(eventLog, organizationOwners, logger);
    const app = createUsersApp({
      gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
      organizationOwners,
      ...deps,
      logger,
      health: { store: () => store.healthy(), event_log: () => eventLog.healthy() },
      metrics,
    });
    const http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
    return {
      name: 'users',
      handler: app,
      url: http.url,
      port: http.port,
      async stop() {
        await http.close();
        await detections.stop();
        await owners.stop();
        await closeOwned();
      },
    };
  } catch (err) {
    await closeOwned();
    throw err;
  }
}
