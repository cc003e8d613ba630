/**
 * GET /v2/streams → {streams, meta}.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { streamEndpoint } from '../stream-endpoints';
import { listStreamsQuery, ListStreamsQuery } from './list-streams.schema';
import { listStreams } from './list-streams.usecase';

export function listStreamsRoute(router: IRouter, deps: StreamDeps): void {
  const checks = [{ in: 'query', schema: listStreamsQuery, kind: 'bad_request', code: 'INVALID_QUERY' }] as const;
  endpointRoute<ListStreamsQuery>(router, streamEndpoint('listStreams'), checks, async (req, res, { query }) => {
    const { customerId } = callerOf(req);
    res.json(await listStreams(deps, customerId, query));
  });
}
