/**
 * The gateway on the shared skeleton: accounts, token revocations, rate limits, the outbox its
 * organization events leave by, and the proxy to the services in `directory`.
 */
import { randomBytes } from 'node:crypto';
import { generateGatewayKey, parseGatewayKeys } from '@wellstream/config';
import { ALL_TOPICS } from '@wellstream/contracts';
import { FaultTolerantRateLimitStore } from '@wellstream/ratelimit';
import { createRateLimitStore, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { AccountCache } from './accounts/account-cache';
import { AccountRepository } from './accounts/account.repository';
import { tokenRevocations } from './auth/token-revocations';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';
import type { InProcessServices } from './proxy/in-process-services';
import type { ServiceDirectory } from './proxy/service-proxy';
import { systemClock } from '@wellstream/clock';

export interface RunningGateway extends RunningService {
  adminToken: string;
  adminTokenGenerated: boolean;
  publicUrl: string;
  directory: ServiceDirectory;
  /** The embedded platform registers each service's handler here as it starts. */
  inProcess: InProcessServices;
}

export function composeGateway(config: GatewayConfig, shared: SharedInfra = {}, directory: ServiceDirectory = {}): Promise<RunningGateway> {
  return startService<GatewayConfig, Omit<RunningGateway, keyof RunningService>>({
    name: 'gateway',
    config,
    shared,
    listen: { host: config.WELLSTREAM_HOST, port: config.WELLSTREAM_PORT },
    topics: ALL_TOPICS,
    async compose({ store, eventLog, logger, metrics, lifecycle, openOutbox }) {
      const rateLimits = new FaultTolerantRateLimitStore(createRateLimitStore(config, logger), { mode: config.WELLSTREAM_RATE_LIMIT_FAILURE_MODE, logger });
      lifecycle.onStop('rate limits', () => rateLimits.close());
      const repo = await AccountRepository.open(store);
      const accounts = new AccountCache(repo, config.WELLSTREAM_TOKEN_CACHE_MS);
      const revocations = tokenRevocations(accounts, eventLog, logger);
      lifecycle.started('token revocations', await revocations.follow());
      const outbox = await openOutbox();
      await outbox.start();
      const adminToken = config.WELLSTREAM_ADMIN_TOKEN ?? `wsa_${randomBytes(24).toString('base64url')}`;
      if (config.WELLSTREAM_USERS_URL) directory.users = config.WELLSTREAM_USERS_URL;
      if (config.WELLSTREAM_RECORDS_URL) directory.records = config.WELLSTREAM_RECORDS_URL;
      if (config.WELLSTREAM_STREAMS_URL) directory.streams = config.WELLSTREAM_STREAMS_URL;
      if (config.WELLSTREAM_NOTIFICATIONS_URL) directory.notifications = config.WELLSTREAM_NOTIFICATIONS_URL;
      if (config.WELLSTREAM_RULES_URL) directory.rules = config.WELLSTREAM_RULES_URL;
      if (config.WELLSTREAM_SOURCES_URL) directory.sources = config.WELLSTREAM_SOURCES_URL;
      let publicUrl = config.WELLSTREAM_PUBLIC_URL ?? '';
      metrics.gauge('rate_limit_store_errors', 'Calls to the rate-limit store that failed since start', () => [{ value: rateLimits.storeErrors }]);
      metrics.gauge('rate_limit_store_degraded', '1 while the rate-limit store is failing (limits counted in process or refused)', () => [{ value: rateLimits.degraded ? 1 : 0 }]);
      const inProcess: InProcessServices = {};
      const app = createGatewayApp({
        logger,
        clock: systemClock,
        repo,
        accounts,
        revocations,
        outbox,
        eventLog,
        rateLimits,
        adminToken,
        defaultRateLimit: config.WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR,
        publicUrl: () => publicUrl,
        directory,
        // Without a configured key (a gateway with no service outside its process) nobody else verifies.
        gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS ?? generateGatewayKey()),
        inProcess,
        ownHealth: { store: () => store.healthy(), event_log: () => eventLog.healthy(), rate_limit_store: () => rateLimits.healthy() },
        // Fail-open keeps serving without Redis (degraded); fail-closed refuses, so it is required then.
        optionalHealth: config.WELLSTREAM_RATE_LIMIT_FAILURE_MODE === 'open' ? ['rate_limit_store'] : [],
        metrics,
      });
      return {
        app,
        listening(http) {
          // The default public URL follows the port actually bound (marketplace URLs follow it).
          publicUrl ||= `http://${config.WELLSTREAM_HOST.includes(':') ? `[${config.WELLSTREAM_HOST}]` : config.WELLSTREAM_HOST}:${http.port}`;
          return { adminToken, adminTokenGenerated: !config.WELLSTREAM_ADMIN_TOKEN, publicUrl, directory, inProcess };
        },
      };
    },
  });
}
