/**
 * A request's id and its log line, for the express apps (requestContext) and for the gateway's
 * forwarding path, which answers most requests without express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Logger, newRequestId, redactString, runWithRequestContext } from '@wellstream/logging';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives the request its id (the caller's X-Request-Id when well-formed, else a new one), answers
 * it, and logs one line when the response finishes. Returns the id.
 */
export function startRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newRequestId();
  req.headers['x-request-id'] = requestId;
  res.setHeader('X-Request-Id', requestId);
  // A muted logger (nothing reads it) would drop the line anyway: skip building it.
  if (logger.silent) return requestId;
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    runWithRequestContext({ requestId }, () =>
      logger.info('request', {
        method: req.method,
        path: redactString((req as { originalUrl?: string }).originalUrl ?? req.url ?? ''),
        status: res.statusCode,
        duration_ms: Math.round(ms * 10) / 10,
      }),
    );
  });
  return requestId;
}

/** startRequest as express middleware; what runs after it logs with the request id. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => runWithRequestContext({ requestId: startRequest(logger, req, res) }, next);
}
