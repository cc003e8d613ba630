/**
 * The users service on the shared skeleton: its repositories, the outbox its events leave by, the
 * consumers of source detections (records), provider connections and offered providers (sources),
 * and its routes.
 */
import { ALL_TOPICS, MOBILE_TOKEN_COPIES, userEventsTopic } from '@wellstream/contracts';
import { organizationLookup } from './sources/organization-sources/organization-lookup';
import { createStandardServiceApp, followOrganizationOwners, idempotentAnswers, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { usersRoutes } from './app';
import { usersEndpoint } from './users-endpoints';
import type { UsersConfig } from './config';
import { UserRepository } from './users/user.repository';
import { UserEvents } from './users/user-events';
import type { UsersDeps } from './users/users.deps';
import { consumeSourceConnections } from './sources/source-connections.consumer';
import { consumeSourceProviders } from './sources/source-providers.consumer';
import { SourceProviderRepository } from './sources/source-provider.repository';
import { usersOpenApi } from '@wellstream/endpoints';
import { systemClock } from '@wellstream/clock';
import { answerUserDataRequests } from '@wellstream/runtime';
import { auditLogTopic, userDataExportsTopic } from '@wellstream/contracts';
import type { LifecycleDeps } from './lifecycle/lifecycle.deps';
import { ExportRepository } from './lifecycle/exports/export.repository';
import { AuditLogRepository } from './lifecycle/audit/audit-log.repository';
import { ErasureRepository } from './lifecycle/erasure/erasure.repository';
import { assembleExportPart } from './lifecycle/exports/assemble-export.usecase';
import { usersDataHolder } from './lifecycle/users-data-holder';
import { startRetentionSweeper } from './lifecycle/retention/retention-sweep';
import { lifecycleRoutes } from './lifecycle/lifecycle.routes';

/** The longest a mobile-token rotation waits for the services that cache tokens. */
const TOKEN_COPIES_WAIT_MS = 5_000;

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
      const answers = await idempotentAnswers(store);
      const deps: UsersDeps = {
        repo: await UserRepository.open(store),
        events: new UserEvents(outbox),
        clock: systemClock,
        providers: await SourceProviderRepository.open(store),
        marketplaceUrl: (token) => `${publicUrl}/v2/marketplace/${token}`,
        organizations: await organizationLookup(ctx),
        idempotentAnswers: answers,
      };
      const tokenCopies = Object.values(MOBILE_TOKEN_COPIES).map((group) => ctx.readYourWrites(userEventsTopic, group, TOKEN_COPIES_WAIT_MS));
      deps.tokenCopiesApplied = async () => void (await Promise.all(tokenCopies.map((c) => c.latest(async () => undefined))));
      await outbox.start();
      const clock = shared.clock ?? systemClock;
      const lifecycleDeps: LifecycleDeps = {
        users: deps.repo,
        exports: await ExportRepository.open(store),
        audit: await AuditLogRepository.open(store),
        erasures: await ErasureRepository.open(store),
        idempotentAnswers: answers,
        outbox,
        eventLog,
        clock,
        linkKey: config.WELLSTREAM_GATEWAY_KEYS.split(',')[0],
        linkTtlSeconds: config.WELLSTREAM_EXPORT_LINK_TTL_S,
        publicUrl,
        retentionDays: config.WELLSTREAM_RETENTION_DAYS,
      };
      // The data lifecycle (docs/data-lifecycle.md): the audit log it keeps, the exports it assembles, its own share of every request.
      await ctx.consume(auditLogTopic, { groupId: 'users.audit-log', fromBeginning: true, handle: (entry) => lifecycleDeps.audit.keep(entry) });
      await ctx.consume(userDataExportsTopic, { groupId: 'users.user-data-exports', fromBeginning: true, handle: (part) => assembleExportPart(lifecycleDeps, part) });
      await answerUserDataRequests(ctx, outbox, usersDataHolder(lifecycleDeps), clock);
      const sweeper = startRetentionSweeper(lifecycleDeps, config.WELLSTREAM_RETENTION_SWEEP_INTERVAL_MS, (error) => logger.error('retention sweep failed; the next run retries', { error }));
      lifecycle.started('retention sweeper', sweeper);
      lifecycle.started('source providers', await consumeSourceProviders(eventLog, deps.providers, logger));
      lifecycle.started('source connections', await consumeSourceConnections(eventLog, deps, logger));
      const organizationOwners = await followOrganizationOwners(ctx);
      return {
        app: createStandardServiceApp(ctx, {
          openapi: usersOpenApi,
          organizationOwners,
          routes: [...usersRoutes(deps), ...lifecycleRoutes(lifecycleDeps)],
          idempotent: { answers, routes: [{ route: usersEndpoint('createUser') }, { route: usersEndpoint('requestUserExport') }] },
        }),
      };
    },
  });
}
