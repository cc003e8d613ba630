/**
 * The streams service's composition root: picks adapters from config, wires use cases, starts HTTP.
 */
import { parseGatewayKeys } from '@wellstream/config';
import { customerEventsTopic } from '@wellstream/contracts';
import { HttpServerHandle, ServiceMetrics, startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createStreamsApp } from './app';
import type { StreamsConfig } from './config';
import { CustomerQuota } from './delivery/customer-quota';
import { MemberCounter } from './delivery/member-counter';
import { StreamLag } from './delivery/stream-lag';
import { StreamRepository } from './streams/stream.repository';

export async function composeStreams(config: StreamsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const logger = createLogger('streams');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'streams', logger, shared);
  // The gateway ensures every topic at start-up; a streams replica started alone must not depend on it.
  await eventLog.ensureTopic(customerEventsTopic.spec);
  const repo = await StreamRepository.open(store);
  const members = new MemberCounter(eventLog);
  const quota = new CustomerQuota({
    stream: config.WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER,
    replay: config.WELLSTREAM_REPLAY_MAX_PER_CUSTOMER,
    retryAfterSeconds: Math.max(1, Math.ceil(config.WELLSTREAM_POKE_INTERVAL_MS / 1000)),
  });
  const lag = new StreamLag();
  const metrics = new ServiceMetrics('streams');
  metrics.gauge('stream_delivery_lag_seconds', 'Time from append to the write to a client, of the last event each stream group delivered here', () => lag.lagSeconds(), ['group']);
  metrics.gauge('stream_delivered_events', 'Events each stream group delivered to clients here since its first client connected', () => lag.deliveredCounts(), ['group']);
  const late: { http?: HttpServerHandle } = {};
  const app = createStreamsApp({
    gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
    logger,
    health: { store: () => store.healthy(), event_log: () => eventLog.healthy() },
    metrics,
    streams: { repo, eventLog, members },
    connect: {
      repo,
      eventLog,
      members,
      quota,
      lag,
      logger,
      maxMembers: config.WELLSTREAM_STREAM_MAX_MEMBERS,
      pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS,
    },
    replay: { eventLog, quota, logger, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS, eventsPerSecond: config.WELLSTREAM_REPLAY_MAX_EVENTS_PER_SECOND },
    sse: {
      writeTimeoutMs: config.WELLSTREAM_STREAM_WRITE_TIMEOUT_MS,
      maxBufferBytes: config.WELLSTREAM_STREAM_MAX_BUFFER_BYTES,
      // Bound late: the server starts after the app exists; no request arrives before that.
      trackLongLived: (end) => (late.http ? late.http.trackLongLived(end) : () => {}),
    },
  });
  const server = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
  late.http = server;
  let stopping: Promise<void> | undefined;
  return {
    name: 'streams',
    handler: app,
    url: server.url,
    port: server.port,
    stop() {
      // Idempotent: the platform may stop a service that was already stopped on its own.
      stopping ??= (async () => {
        await server.close();
        await store.close();
        if (!shared.eventLog) await eventLog.close();
      })();
      return stopping;
    },
  };
}
