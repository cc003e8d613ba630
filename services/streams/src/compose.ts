/**
 * The streams service on the shared skeleton: stream resources, connection quotas, delivery lag
 * metrics and its routes. It consumes no topic itself: one reader per stream with clients here
 * reads the log for them (delivery/shared-reader).
 */
import { customerEventsTopic } from '@wellstream/contracts';
import { createStandardServiceApp, GoneUsers, idempotentAnswers, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { streamsRoutes } from './app';
import { streamEndpoint } from './streams/stream-endpoints';
import type { StreamsConfig } from './config';
import { CustomerQuota } from './delivery/customer-quota';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseGatewayKeys } from '@wellstream/config';
import { ConnectAdmission } from './delivery/connect-stream/connect-admission';
import { connectStreamRoute } from './delivery/connect-stream/connect-stream.route';
import { ConnectableStreams } from './delivery/connect-stream/connectable-streams';
import { MemberDirectory } from './delivery/members/member-directory';
import { StreamMembers } from './delivery/members/stream-members';
import { StreamReaders } from './delivery/shared-reader/stream-readers';
import { StreamLag } from './delivery/stream-lag';
import { streamsOpenApi } from '@wellstream/endpoints';
import { StreamRepository } from './streams/stream.repository';
import { systemClock } from '@wellstream/clock';

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
      const members = new StreamMembers(await MemberDirectory.open(store), systemClock, logger, {
        replicaId: `${process.pid}-${randomUUID()}`,
        ttlMs: config.WELLSTREAM_POKE_INTERVAL_MS,
      });
      members.start();
      ctx.lifecycle.onStop('stream member counts', () => members.stop());
      const quota = new CustomerQuota({
        stream: config.WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER,
        replay: config.WELLSTREAM_REPLAY_MAX_PER_CUSTOMER,
        tail: config.WELLSTREAM_TAIL_MAX_PER_CUSTOMER,
        retryAfterSeconds: Math.max(1, Math.ceil(config.WELLSTREAM_POKE_INTERVAL_MS / 1000)),
      });
      const lag = new StreamLag();
      // Deleted and erased users, per customer: streams and replays skip their events.
      const gone = await GoneUsers.start(ctx, { scope: 'customer' });
      // Stops after HTTP has closed every client: waits for the readers to leave their groups.
      const readers = ctx.lifecycle.started('stream readers', new StreamReaders({ eventLog, lag, logger, gone, resendWindowMs: config.WELLSTREAM_STREAM_RESEND_WINDOW_MS }));
      const connectable = new ConnectableStreams(repo);
      const admission = new ConnectAdmission({ maxInProgress: config.WELLSTREAM_STREAM_MAX_CONNECTING, retryAfterSeconds: { min: 1, max: 5 } });
      metrics.gauge('stream_readers', 'Streams with clients on this process (one broker consumer each)', () => [{ value: readers.size }]);
      metrics.gauge('stream_delivery_lag_seconds', 'Time from append to the write to a client, of the last event each stream group delivered here', () => lag.lagSeconds(), ['group']);
      metrics.gauge('stream_delivered_events', 'Events each stream group delivered to clients here since its first client connected', () => lag.deliveredCounts(), ['group']);
      const sse = {
        writeTimeoutMs: config.WELLSTREAM_STREAM_WRITE_TIMEOUT_MS,
        maxBufferBytes: config.WELLSTREAM_STREAM_MAX_BUFFER_BYTES,
        trackLongLived: ctx.trackLongLived,
      };
      const connect = connectStreamRoute(
        { clock: systemClock, streams: connectable, readers, members, quota, admission, lag, logger, maxMembers: config.WELLSTREAM_STREAM_MAX_MEMBERS, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS },
        sse,
        { keys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS), logger, metrics },
      );
      const routes = streamsRoutes({
        streams: { repo, eventLog, members, clock: systemClock, forgetConnectable: (customerId, id) => connectable.forget(customerId, id) },
        replay: { clock: systemClock, gone, eventLog, quota, logger, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS, eventsPerSecond: config.WELLSTREAM_REPLAY_MAX_EVENTS_PER_SECOND },
        tail: { clock: systemClock, gone, eventLog, quota, logger, streams: connectable, pokeIntervalMs: config.WELLSTREAM_POKE_INTERVAL_MS },
        sse,
      });
      const app = createStandardServiceApp(ctx, { openapi: streamsOpenApi, routes, idempotent: { answers: await idempotentAnswers(ctx.store), routes: [{ route: streamEndpoint('createStream') }] } });
      // Stream connections first, without express (an idle client should cost a socket); the rest to express.
      const handler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => {
        // express's own typing wants its Request; at the call it takes node's, which it turns into one.
        if (!connect(req, res)) (app as unknown as (q: IncomingMessage, r: ServerResponse, n?: (err?: unknown) => void) => void)(req, res, next);
      };
      return { app: handler };
    },
  });
}
