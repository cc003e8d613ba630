/**
 * The streams service's routes: stream resources, connect (SSE, consumer groups) and replay.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import type { ConnectDeps } from './delivery/connect-stream/connect-stream.usecase';
import { connectStreamRoute } from './delivery/connect-stream/connect-stream.route';
import { replayRoute } from './delivery/replay/replay.route';
import type { ReplayDeps } from './delivery/replay/replay.usecase';
import type { SseSettings } from './delivery/sse-response';
import { createStreamRoute } from './streams/create-stream/create-stream.route';
import { deleteStreamRoute } from './streams/delete-stream/delete-stream.route';
import { getStreamRoute } from './streams/get-stream/get-stream.route';
import { listStreamsRoute } from './streams/list-streams/list-streams.route';
import { renameStreamRoute } from './streams/rename-stream/rename-stream.route';
import type { StreamDeps } from './streams/stream-deps';

export interface StreamsRouteDeps {
  streams: StreamDeps;
  connect: ConnectDeps;
  replay: ReplayDeps;
  sse: SseSettings;
}

export const streamsRoutes = (deps: StreamsRouteDeps): RouteRegistration[] => [
  // Before '/v2/streams/:id' so "connect" is never read as an id.
  (router) => connectStreamRoute(router, deps.connect, deps.sse),
  (router) => replayRoute(router, deps.replay, deps.sse),
  ...[createStreamRoute, listStreamsRoute, getStreamRoute, renameStreamRoute, deleteStreamRoute].map((register): RouteRegistration => (router) => register(router, deps.streams)),
];
