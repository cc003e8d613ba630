/**
 * POST /v2/streams → 201 Stream.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import type { StreamDeps } from '../stream-deps';
import { streamEndpoint } from '../stream-endpoints';
import { createStreamRules, createStreamShape, CreateStreamInput } from './create-stream.schema';
import { createStream } from './create-stream.usecase';

export function createStreamRoute(router: IRouter, deps: StreamDeps): void {
  const checks = [
    { in: 'body', schema: createStreamShape, kind: 'bad_request', code: 'MALFORMED_STREAM' },
    { in: 'body', schema: createStreamRules, kind: 'unprocessable', code: 'INVALID_STREAM' },
  ] as const;
  endpointRoute<unknown, CreateStreamInput>(router, streamEndpoint('createStream'), checks, async (req, res, { body }) => {
    const { customerId } = callerOf(req);
    res.status(201).json(await createStream(deps, customerId, body));
  });
}
