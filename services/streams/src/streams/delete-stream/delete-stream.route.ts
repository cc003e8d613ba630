/**
 * DELETE /v2/streams/:id → Stream with deleted_at; 409 while clients are connected.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { streamEndpoint } from '../stream-endpoints';
import { deleteStream } from './delete-stream.usecase';

export function deleteStreamRoute(router: IRouter, deps: StreamDeps): void {
  endpointRoute(router, streamEndpoint('deleteStream'), [], async (req, res) => {
    res.json(await deleteStream(deps, callerOf(req).customerId, req.params.id));
  });
}
