/**
 * The users service on the shared skeleton: its repositories, the outbox its events leave by, the
 * consumers of source detections (records), provider connections and offered providers (sources),
 * and its routes.
 */
import { ALL_TOPICS } from '@wellstream/contracts';
import { organizationLookup } from './sources/organization-sources/organization-lookup';
import { createStandardServiceApp, followOrganizationOwners, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { usersRoutes } from './app';
import type { UsersConfig } from './config';
import { UserRepository } from './users/user.repository';
import { UserEvents } from './users/user-events';
import type { UsersDeps } from './users/users.deps';
import { consumeSourceDetections } from './sources/source-detections.consumer';
import { consumeSourceConnections } from './sources/source-connections.consumer';
import { consumeSourceProviders } from './sources/source-providers.consumer';
import { SourceProviderRepository } from './sources/source-provider.repository';
import { usersOpenApi } from './docs/users.openapi';
import { systemClock } from '@wellstream/clock';

export function composeUsers(config: UsersConfig, shared: SharedInfra = {}): Promise<RunningService> {
  return startService({
    name: 'users',
    config,
    shared,
    // Idempotent; lets the service start on its own (distributed) before or without the gateway.
    topics: ALL_TOPICS,
    async compose(ctx) {
      const { store, eventLog, logger, lifecycle } = ctx;
      const publicUrl = config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, '');
      const outbox = await ctx.openOutbox();
      const deps: UsersDeps = {
        repo: await UserRepository.open(store),
        events: new UserEvents(outbox),
        clock: systemClock,
        providers: await SourceProviderRepository.open(store),
        marketplaceUrl: (token) => `${publicUrl}/v2/marketplace/${token}`,
        organizations: await organizationLookup(ctx),
      };
      await outbox.start();
      lifecycle.started('source detections', await consumeSourceDetections(eventLog, deps, logger));
      lifecycle.started('source providers', await consumeSourceProviders(eventLog, deps.providers, logger));
      lifecycle.started('source connections', await consumeSourceConnections(eventLog, deps, logger));
      const organizationOwners = await followOrganizationOwners(ctx);
      return { app: createStandardServiceApp(ctx, { openapi: usersOpenApi, organizationOwners, routes: usersRoutes(deps) }) };
    },
  });
}
