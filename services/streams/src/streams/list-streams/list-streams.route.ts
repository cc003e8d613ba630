/**
 * GET /v2/streams → {streams, meta}.
 */
import type { IRouter } from 'express';
import { callerOf, route, validate } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { listStreamsQuery, ListStreamsQuery } from './list-streams.schema';
import { listStreams } from './list-streams.usecase';

export function listStreamsRoute(router: IRouter, deps: StreamDeps): void {
  router.get(
    '/v2/streams',
    route(async (req, res) => {
      const { customerId } = callerOf(req);
      const query = validate<ListStreamsQuery>(listStreamsQuery, req.query, { kind: 'bad_request', code: 'INVALID_QUERY' });
      res.json(await listStreams(deps, customerId, query));
    }),
  );
}
