/**
 * GET /v2/streams/:id → Stream (404 for unknown, deleted, or another customer's stream).
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { streamEndpoint } from '../stream-endpoints';
import { getStream } from './get-stream.usecase';

export function getStreamRoute(router: IRouter, deps: StreamDeps): void {
  endpointRoute(router, streamEndpoint('getStream'), [], async (req, res) => {
    res.json(await getStream(deps, callerOf(req).customerId, req.params.id));
  });
}
