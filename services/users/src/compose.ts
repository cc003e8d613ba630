/**
 * The users service's composition root: picks adapters from config, wires use cases, starts the
 * source-detection consumer and HTTP.
 */
import { parseGatewayKeys } from '@wellstream/config';
import { startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { ALL_TOPICS } from '@wellstream/contracts';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createUsersApp } from './app';
import type { UsersConfig } from './config';
import { UserRepository } from './users/user.repository';
import { UserEventsPublisher } from './users/user-events.publisher';
import type { UsersDeps } from './users/users.deps';
import { consumeSourceDetections } from './sources/source-detections.consumer';
import { OrganizationOwnerRepository } from './organizations/organization-owner.repository';
import { consumeOrganizationOwners } from './organizations/organization-events.consumer';

export async function composeUsers(config: UsersConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const logger = createLogger('users');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'users', logger, shared);
  const closeOwned = async () => {
    await store.close();
    if (!shared.eventLog) await eventLog.close();
  };
  try {
    // Idempotent; lets the service start on its own (distributed) before or without the gateway.
    for (const topic of ALL_TOPICS) await eventLog.ensureTopic(topic.spec);
    const publicUrl = config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, '');
    const deps: UsersDeps = {
      repo: await UserRepository.open(store),
      events: new UserEventsPublisher(eventLog),
      now: () => new Date().toISOString(),
      marketplaceUrl: (token) => `${publicUrl}/v2/marketplace/${token}`,
    };
    const detections = await consumeSourceDetections(eventLog, deps, logger);
    const organizationOwners = await OrganizationOwnerRepository.open(store);
    const owners = await consumeOrganizationOwners(eventLog, organizationOwners, logger);
    const app = createUsersApp({
      gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
      organizationOwners,
      ...deps,
      logger,
      health: async () => (await store.healthy()) && (await eventLog.healthy()),
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
