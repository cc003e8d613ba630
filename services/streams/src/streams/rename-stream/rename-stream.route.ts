/**
 * PUT /v2/streams/:id → Stream with the new name.
 */
import type { IRouter } from 'express';
import { callerOf, route, validate } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { renameStreamRules, renameStreamShape } from './rename-stream.schema';
import { renameStream } from './rename-stream.usecase';

export function renameStreamRoute(router: IRouter, deps: StreamDeps): void {
  router.put(
    '/v2/streams/:id',
    route(async (req, res) => {
      const { customerId } = callerOf(req);
      validate(renameStreamShape, req.body, { kind: 'bad_request', code: 'MALFORMED_STREAM' });
      const { name } = validate(renameStreamRules, req.body, { kind: 'unprocessable', code: 'INVALID_STREAM' });
      res.json(await renameStream(deps, customerId, req.params.id, name));
    }),
  );
}
