/**
 * The streams service's express routes: stream resources, replay and tail (connect is served before
 * express: see compose.ts).
 */
import type { RouteRegistration } from '@wellstream/runtime';
import { replayRoute } from './delivery/replay/replay.route';
import type { ReplayDeps } from './delivery/replay/replay.usecase';
import type { SseSettings } from './delivery/sse-response';
import { tailRoute } from './delivery/tail/tail-stream.route';
import type { TailDeps } from './delivery/tail/tail-stream.usecase';
import { createStreamRoute } from './streams/create-stream/create-stream.route';
import { deleteStreamRoute } from './streams/delete-stream/delete-stream.route';
import { getStreamRoute } from './streams/get-stream/get-stream.route';
import { listStreamsRoute } from './streams/list-streams/list-streams.route';
import { renameStreamRoute } from './streams/rename-stream/rename-stream.route';
import type { StreamDeps } from './streams/stream-deps';

export interface StreamsRouteDeps {
  streams: StreamDeps;
  replay: ReplayDeps;
  tail: TailDeps;
  sse: SseSettings;
}

export const streamsRoutes = (deps: StreamsRouteDeps): RouteRegistration[] => [
  // GET /v2/streams/:id/connect is served before express (delivery/connect-stream/connect-stream.route.ts).
  (router) => replayRoute(router, deps.replay, deps.sse),
  (router) => tailRoute(router, deps.tail, deps.sse),
  ...[createStreamRoute, listStreamsRoute, getStreamRoute, renameStreamRoute, deleteStreamRoute].map((register): RouteRegistration => (router) => register(router, deps.streams)),
];
