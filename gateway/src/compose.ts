/**
 * The gateway's composition root.
 */
import { randomBytes } from 'node:crypto';
import { generateGatewayKey, parseGatewayKeys } from '@wellstream/config';
import { ALL_TOPICS } from '@wellstream/contracts';
import { ServiceMetrics, startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { Outbox, outboxGauges } from '@wellstream/outbox';
import { FaultTolerantRateLimitStore } from '@wellstream/ratelimit';
import { createDocumentStore, createEventLog, createRateLimitStore, RunningService, SharedInfra } from '@wellstream/runtime';
import { AccountCache } from './accounts/account-cache';
import { AccountRepository } from './accounts/account.repository';
import { tokenRevocations } from './auth/token-revocations';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';
import type { InProcessServices } from './proxy/in-process-dispatch';
import type { ServiceDirectory } from './proxy/service-proxy';

export interface RunningGateway extends RunningService {
  adminToken: string;
  adminTokenGenerated: boolean;
  publicUrl: string;
  directory: ServiceDirectory;
  /** The embedded platform registers each service's handler here as it starts. */
  inProcess: InProcessServices;
}

export async function composeGateway(config: GatewayConfig, shared: SharedInfra = {}, directory: ServiceDirectory = {}): Promise<RunningGateway> {
  const logger = createLogger('gateway');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  for (const t of ALL_TOPICS) await eventLog.ensureTopic(t.spec);
  const store = createDocumentStore(config, 'gateway', logger, shared);
  const rateLimits = new FaultTolerantRateLimitStore(createRateLimitStore(config, logger), { mode: config.WELLSTREAM_RATE_LIMIT_FAILURE_MODE, logger });
  const repo = await AccountRepository.open(store);
  const accounts = new AccountCache(repo, config.WELLSTREAM_TOKEN_CACHE_MS);
  const revocations = tokenRevocations(accounts, eventLog, logger);
  const following = await revocations.follow();
  const outbox = await Outbox.open(store, { eventLog, logger, staleMs: config.WELLSTREAM_OUTBOX_STALE_MS, drainMs: config.WELLSTREAM_OUTBOX_DRAIN_MS });
  await outbox.start();
  const adminToken = config.WELLSTREAM_ADMIN_TOKEN ?? `wsa_${randomBytes(24).toString('base64url')}`;
  if (config.WELLSTREAM_USERS_URL) directory.users = config.WELLSTREAM_USERS_URL;
  if (config.WELLSTREAM_RECORDS_URL) directory.records = config.WELLSTREAM_RECORDS_URL;
  if (config.WELLSTREAM_STREAMS_URL) directory.streams = config.WELLSTREAM_STREAMS_URL;
  if (config.WELLSTREAM_NOTIFICATIONS_URL) directory.notifications = config.WELLSTREAM_NOTIFICATIONS_URL;
  if (config.WELLSTREAM_RULES_URL) directory.rules = config.WELLSTREAM_RULES_URL;
  let publicUrl = config.WELLSTREAM_PUBLIC_URL ?? '';
  const metrics = new ServiceMetrics('gateway');
  for (const g of outboxGauges(outbox)) metrics.gauge(g.name, g.help, g.read);
  metrics.gauge('rate_limit_store_errors', 'Calls to the rate-limit store that failed since start', () => [{ value: rateLimits.storeErrors }]);
  metrics.gauge('rate_limit_store_degraded', '1 while the rate-limit store is failing (limits counted in process or refused)', () => [{ value: rateLimits.degraded ? 1 : 0 }]);
  const inProcess: InProcessServices = {};
  const app = createGatewayApp({
    logger,
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
  const http = await startHttpServer(app, { host: config.WELLSTREAM_HOST, port: config.WELLSTREAM_PORT });
  // The default public URL follows the port actually bound (marketplace URLs follow it).
  publicUrl ||= `http://${config.WELLSTREAM_HOST.includes(':') ? `[${config.WELLSTREAM_HOST}]` : config.WELLSTREAM_HOST}:${http.port}`;
  return {
    name: 'gateway',
    url: http.url,
    port: http.port,
    adminToken,
    adminTokenGenerated: !config.WELLSTREAM_ADMIN_TOKEN,
    publicUrl,
    directory,
    inProcess,
    async stop() {
      await http.close();
      await following.stop();
      await outbox.stop();
      await rateLimits.close();
      await store.close();
      if (!shared.eventLog) await eventLog.close();
    },
  };
}
