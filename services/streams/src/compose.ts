/**
 * The streams service on the shared skeleton: stream resources, connection quotas, delivery lag
 * metrics and its routes. It consumes no topic itself: each client connection reads the log.
 */
import { customerEventsTopic } from '@wellstream/contracts';
import { createStandardServiceApp, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { streamsRoutes } from './app';
import type { StreamsConfig } from './config';
import { CustomerQuota } from './delivery/customer-quota';
import { MemberCounter } from './delivery/member-counter';
import { StreamLag } from './delivery/stream-lag';
import { streamsOpenApi } from './docs/streams.openapi';
import { StreamRepository } from './streams/stream.repository';
import { systemClock } from '@wellstream/clock';
import { userDataRequestsTopic } from '@wellstream/contracts';
import { ErasedUsers } from './erasure/erased-users';

export function composeStreams(config: StreamsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  return startService({
    name: 'streams',
    config,
    shared,
    // The gateway ensures every topic at start-up; a streams replica started alone must not depend on it.
    topics: [customerEventsTopic],
    async compose(ctx) {
      const { store, eventLog, logger, metrics } = ctx;
      const repo = await StreamRepository.open(store);
      const members = new MemberCounter(eventLog);
      const quota = new CustomerQuota({
        stream: config.WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER,
        replay: config.WELLSTREAM_REPLAY_MAX_PER_CUSTOMER,
        retryAfterSeconds: Math.max(1, Math.ceil(config.WELLSTREAM_POKE_INTERVAL_MS / 1000)),
      });
      const lag = new StreamLag();
      const erased = await ErasedUsers.open(store);
      await eventLog.ensureTopic(userDataRequestsTopic.spec);
      await ctx.consume(userDataRequestsTopic, {
        groupId: 'streams.user-data-requests',
        fromBeginning: true,
        handle: async (request) => {
          if (request.type === 'erasure.requested') await erased.add(request.user_id, request.requested_at);
        },
      });
      metrics.gauge('stream_delivery_lag_seconds', 'Time from append to the write to a client, of the last event each stream group delivered here', () => lag.lagSeconds(), ['group']);
      metrics.gauge('stream_delivered_events', 'Events each stream group delivered to clients here since its first client connected', () => lag.deliveredCounts(), ['group']);
      const routes = streamsRoutes({
        streams: { repo, eventLog, members, clock: systemClock },
        connect: { clock: systemClock, erased, repo, eventLog, members, quota, lag, logger, maxMembers: config.WELLSTREAM_STREAM_MAX_MEMBERS, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS },
        replay: { clock: systemClock, erased, eventLog, quota, logger, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS, eventsPerSecond: config.WELLSTREAM_REPLAY_MAX_EVENTS_PER_SECOND },
        sse: {
          writeTimeoutMs: config.WELLSTREAM_STREAM_WRITE_TIMEOUT_MS,
          maxBufferBytes: config.WELLSTREAM_STREAM_MAX_BUFFER_BYTES,
          trackLongLived: ctx.trackLongLived,
        },
      });
      return { app: createStandardServiceApp(ctx, { openapi: streamsOpenApi, routes }) };
    },
  });
}
