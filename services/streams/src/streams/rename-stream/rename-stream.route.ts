/**
 * PUT /v2/streams/:id → Stream with the new name.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { streamEndpoint } from '../stream-endpoints';
import { renameStreamRules, renameStreamShape } from './rename-stream.schema';
import { renameStream } from './rename-stream.usecase';

export function renameStreamRoute(router: IRouter, deps: StreamDeps): void {
  const checks = [
    { in: 'body', schema: renameStreamShape, kind: 'bad_request', code: 'MALFORMED_STREAM' },
    { in: 'body', schema: renameStreamRules, kind: 'unprocessable', code: 'INVALID_STREAM' },
  ] as const;
  endpointRoute<unknown, { name: string }>(router, streamEndpoint('renameStream'), checks, async (req, res, { body }) => {
    const { customerId } = callerOf(req);
    res.json(await renameStream(deps, customerId, req.params.id, body.name));
  });
}
