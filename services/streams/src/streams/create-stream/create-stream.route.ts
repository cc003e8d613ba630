/**
 * POST /v2/streams → 201 Stream.
 */
import type { IRouter } from 'express';
import { callerOf, route, validate } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { createStreamRules, createStreamShape, CreateStreamInput } from './create-stream.schema';
import { createStream } from './create-stream.usecase';

export function createStreamRoute(router: IRouter, deps: StreamDeps): void {
  router.post(
    '/v2/streams',
    route(async (req, res) => {
      const { customerId } = callerOf(req);
      validate(createStreamShape, req.body, { kind: 'bad_request', code: 'MALFORMED_STREAM' });
      const input = validate<CreateStreamInput>(createStreamRules, req.body, { kind: 'unprocessable', code: 'INVALID_STREAM' });
      res.status(201).json(await createStream(deps, customerId, input));
    }),
  );
}
