/**
 * The streams service's express app: stream resources, connect (SSE, consumer groups), replay,
 * and the OpenAPI part, on the shared app factory.
 */
import type express from 'express';
import { createServiceApp, HealthOption, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import { ConnectDeps } from './delivery/connect-stream/connect-stream.usecase';
import { connectStreamRoute } from './delivery/connect-stream/connect-stream.route';
import { replayRoute } from './delivery/replay/replay.route';
import type { ReplayDeps } from './delivery/replay/replay.usecase';
import type { SseSettings } from './delivery/sse-response';
import { streamsOpenApi } from './docs/streams.openapi';
import { createStreamRoute } from './streams/create-stream/create-stream.route';
import { deleteStreamRoute } from './streams/delete-stream/delete-stream.route';
import { getStreamRoute } from './streams/get-stream/get-stream.route';
import { listStreamsRoute } from './streams/list-streams/list-streams.route';
import { renameStreamRoute } from './streams/rename-stream/rename-stream.route';
import type { StreamDeps } from './streams/stream-deps';

export interface StreamsAppDeps {
  logger: Logger;
  health: HealthOption;
  metrics?: ServiceMetrics;
  /** Verify the gateway's caller assertions (WELLSTREAM_GATEWAY_KEYS). */
  gatewayKeys: readonly string[];
  streams: StreamDeps;
  connect: ConnectDeps;
  replay: ReplayDeps;
  sse: SseSettings;
}

export function createStreamsApp(deps: StreamsAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    metrics: deps.metrics,
    gatewayKeys: deps.gatewayKeys,
    routes: (app) => {
      app.get('/openapi.json', (_req, res) => {
        res.json(streamsOpenApi);
      });
      // Before '/v2/streams/:id' so "connect" is never read as an id.
      connectStreamRoute(app, deps.connect, deps.sse);
      replayRoute(app, deps.replay, deps.sse);
      createStreamRoute(app, deps.streams);
      listStreamsRoute(app, deps.streams);
      getStreamRoute(app, deps.streams);
      renameStreamRoute(app, deps.streams);
      deleteStreamRoute(app, deps.streams);
    },
  });
}
