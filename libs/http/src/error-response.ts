/**
 * The one place where domain errors become HTTP: status code and the three error body shapes of the OpenAPI document
 * ({"message"}, {"errors":[...]}, {"errors":{field:[...]}}). Unknown errors become a bare 500.
 */
import type { ServerResponse } from 'node:http';
import { AppError, isAppError } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';

export interface HttpErrorResponse {
  status: number;
  body: { message: string } | { errors: string[] } | { errors: Record<string, string[]> };
  headers: Record<string, string>;
}

const STATUS: Record<AppError['kind'], number> = {
  unauthenticated: 401,
  forbidden: 401,
  not_found: 404,
  bad_request: 400,
  unprocessable: 422,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export function toHttpError(err: unknown): HttpErrorResponse {
  if (!isAppError(err)) {
    return { status: 500, body: { message: 'An internal error occurred; details were logged.' }, headers: {} };
  }
  const status = STATUS[err.kind];
  const headers: Record<string, string> = {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  switch (err.kind) {
    case 'unauthenticated':
    case 'rate_limited':
    case 'unavailable':
    case 'internal':
      return { status, body: { message: err.message }, headers };
    default:
      return { status, body: err.fieldErrors ? { errors: err.fieldErrors } : { errors: [err.message] }, headers };
  }
}

/** A JSON answer as express's res.json writes it (same content type), for paths that skip express. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** Answers an error in its documented shape (a 5xx is logged with its stack); after the head went out, it can only end. */
export function answerError(res: ServerResponse, err: unknown, logger: Logger): void {
  const out = toHttpError(err);
  if (out.status >= 500) logger.error('request failed', { error: err, stack: (err as Error)?.stack });
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, out.status, out.body, out.headers);
}
