/**
 * The sources service on the shared skeleton: the token vault, the configured providers, the
 * user projection, the sync queue and its scheduler, the app-subscription keeper, and the routes.
 */
import { SOURCE_CONNECTION_COPIES, sourceConnectionsTopic, sourceDetectionsTopic, sourceProvidersTopic, sourceRecordsTopic, userEventsTopic } from '@wellstream/contracts';
import { answerUserDataRequests, createStandardServiceApp, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { sourcesDataHolder } from './lifecycle/sources-data-holder';
import { systemClock } from '@wellstream/clock';
import { sourcesRoutes } from './app';
import type { SourcesConfig } from './config';
import { ConnectionRepository } from './connections/connection.repository';
import { DisconnectionLog } from './connections/disconnection-log';
import type { EndConnectionDeps } from './connections/disconnect.usecase';
import { sourcesOpenApi } from '@wellstream/endpoints';
import { fetchProviderHttp } from './http/fetch-provider-http';
import { OAuthStateRepository } from './oauth/oauth-state.repository';
import { announceProviders, providerOffers } from './providers/announce-providers';
import { applySourceDetection } from './connections/apply-source-detection.usecase';
import { adoptSinceLastRun } from './connections/adopt-users-sources.usecase';
import { AdoptionMarks } from './connections/adoption-marks';
import type { ConnectAtOnceDeps } from './connections/connect-at-once.usecase';
import { marketplaceUsers } from './marketplace/marketplace-user';
import { demoProvider } from './providers/demo/demo-provider';
import { openProviderBudget } from './providers/budget/open-provider-budget';
import { ProviderRegistry } from './providers/provider-registry';
import { runSyncJob, SyncDeps } from './sync/run-sync-job.usecase';
import { SyncJobRepository } from './sync/sync-job.repository';
import { SyncScheduler } from './sync/sync-scheduler';
import { TokenKeeper } from './sync/token-keeper';
import { applyUserEvent } from './users/apply-user-event.usecase';
import { UserProjectionRepository } from './users/user-projection.repository';
import { latestUserSnapshots } from './users/latest-user-snapshots';
import { embeddedTokenKey } from './vault/embedded-token-key';
import { TokenVault } from './vault/token-vault';
import { AppSubscriptionKeeper } from './webhooks/app-subscription-keeper';
import { AppSubscriptionSecrets } from './webhooks/app-subscription-secrets';
import { NotificationReceipts } from './webhooks/notification-receipts.repository';
import { VOLUME_COMMIT_EVERY_MS } from '@wellstream/bus';

const STATE_SWEEP_MS = 60_000;
const USERS_GROUP = 'sources.users';
/** The longest a marketplace request waits for the user projection, or a change for its copies. */
const CATCH_UP_MS = 2_000;

export function composeSources(config: SourcesConfig, shared: SharedInfra = {}): Promise<RunningService> {
  return startService({
    name: 'sources',
    config,
    shared,
    topics: [userEventsTopic, sourceConnectionsTopic, sourceProvidersTopic, sourceRecordsTopic, sourceDetectionsTopic],
    async compose(ctx) {
      const { store, eventLog, logger, lifecycle } = ctx;
      const clock = systemClock;
      const vault = new TokenVault(config.WELLSTREAM_SOURCE_TOKEN_KEY ?? embeddedTokenKey(config.WELLSTREAM_DATA_DIR));
      const budget = openProviderBudget(config, logger);
      lifecycle.onStop('provider budget', () => budget.close());
      const registry = new ProviderRegistry(config, fetchProviderHttp({ timeoutMs: config.WELLSTREAM_SOURCE_HTTP_TIMEOUT_MS }), budget, logger);
      const outbox = await ctx.openOutbox({ clock });
      const connections = await ConnectionRepository.open(store);
      const disconnections = await DisconnectionLog.open(store);
      const jobs = await SyncJobRepository.open(store);
      const states = await OAuthStateRepository.open(store);
      const users = await UserProjectionRepository.open(store);
      const subscriptionSecrets = await AppSubscriptionSecrets.open(store, vault);
      const receipts = await NotificationReceipts.open(store);
      const pollIntervalMs = config.WELLSTREAM_SOURCE_POLL_INTERVAL_S * 1000;
      const subscriptions = await AppSubscriptionKeeper.open(store, { registry, connections, secrets: subscriptionSecrets, vault, clock, logger });
      // Its runs take `sync` (below): the scheduler calls run only once started, after `sync` exists.
      const scheduler = new SyncScheduler({ jobs, run: (job) => runSyncJob(sync, job), clock, logger, tickMs: config.WELLSTREAM_SOURCE_SCHEDULER_TICK_MS, concurrency: config.WELLSTREAM_SOURCE_SYNC_CONCURRENCY });
      // Connects and disconnects change what work is queued and which subscriptions are needed.
      const wake = () => {
        scheduler.poke();
        subscriptions.kick();
      };
      const ending: EndConnectionDeps = { connections, disconnections, jobs, registry, vault, outbox, clock, logger, wake };
      const sync: SyncDeps = { ...ending, users, pollIntervalMs, keeper: new TokenKeeper({ connections, vault, clock }) };
      await outbox.start();
      // Exports and erasures of one user's provider connections (docs/data-lifecycle.md).
      await answerUserDataRequests(ctx, outbox, await sourcesDataHolder(store, connections), shared.clock ?? clock);
      // The demo source publishes like a provider; it starts or stops a user's data on every change.
      const demo = demoProvider({ users, connections, outbox, logger, clock, tickMs: config.WELLSTREAM_DEMO_TICK_MS, backfillDays: config.WELLSTREAM_DEMO_BACKFILL_DAYS });
      const reconcileDemo = (userId: string) => void demo.reconcileUser(userId).catch((err) => logger.warn('demo source reconcile failed', { user_id: userId, error: err }));
      const offers = () => providerOffers(registry, clock.now(), config.WELLSTREAM_SOURCE_POLL_INTERVAL_S);
      await announceProviders(eventLog, offers());
      await ctx.consume(userEventsTopic, { groupId: USERS_GROUP, fromBeginning: true, handle: (event) => applyUserEvent({ ...ending, users, userChanged: reconcileDemo }, event) });
      const freshUsers = ctx.readYourWrites(userEventsTopic, USERS_GROUP, CATCH_UP_MS);
      const copies = Object.values(SOURCE_CONNECTION_COPIES).map((group) => ctx.readYourWrites(sourceConnectionsTopic, group, CATCH_UP_MS));
      const atOnce: ConnectAtOnceDeps = { connections, disconnections, outbox, clock, changed: (userId, type) => type === 'demo' && reconcileDemo(userId) };
      const answered: ConnectAtOnceDeps = { ...atOnce, copiesApplied: async () => void (await Promise.all(copies.map((c) => c.latest(async () => undefined)))) };
      // Upgrading: what the users service connected before this service owned it (before detections
      // are read, so that a replayed one finds the connection and announces nothing).
      const marks = await AdoptionMarks.open(store);
      const adopted = await adoptSinceLastRun({ connections, disconnections, outbox, clock, marks }, async (from) => (await latestUserSnapshots(eventLog, logger, from)).values());
      if (adopted.length) logger.info('adopted connections from the users service', { count: adopted.length });
      await ctx.consume(sourceDetectionsTopic, {
        groupId: 'sources.source-detections',
        fromBeginning: true,
        commitEveryMs: VOLUME_COMMIT_EVERY_MS,
        handle: async (detection) => void (await applySourceDetection({ ...atOnce, logger, userById: async (id) => (await freshUsers.find(() => users.byId(id))) ?? null }, detection)),
      });
      scheduler.start();
      lifecycle.started('sync scheduler', scheduler);
      await demo.start();
      lifecycle.started('demo source', demo);
      subscriptions.start();
      lifecycle.started('webhook subscriptions', subscriptions);
      const sweep = setInterval(() => {
        void states.sweepExpired(clock.now()).catch((err) => logger.warn('state sweep failed', { error: err }));
        void receipts.sweepExpired(clock.now()).catch((err) => logger.warn('notification receipt sweep failed', { error: err }));
      }, STATE_SWEEP_MS);
      sweep.unref();
      lifecycle.onStop('state sweep', async () => clearInterval(sweep));
      ctx.metrics.gauge('sources_sync_jobs_running', 'Sync jobs running in this process', () => [{ value: scheduler.running() }]);
      const routes = sourcesRoutes(
        {
          marketplace: {
            userOf: marketplaceUsers(users, freshUsers),
            publicUrl: config.WELLSTREAM_PUBLIC_URL,
            connect: { registry, vault, states, clock },
            disconnect: ending,
            atOnce: answered,
            view: { connections, offers },
          },
          mobile: { mobileUserOf: (token) => freshUsers.latest(() => users.byMobileToken(token)), atOnce: answered },
          callback: { registry, vault, states, users, connections, jobs, outbox, clock, logger, backfillDays: config.WELLSTREAM_SOURCE_BACKFILL_DAYS, pollIntervalMs, wake },
          webhooks: { ...ending, subscriptionSecrets, receipts },
        },
        () => scheduler.poke(),
      );
      return { app: createStandardServiceApp(ctx, { openapi: sourcesOpenApi, routes }) };
    },
  });
}
