/**
 * The verifying half of gateway-to-service trust (see gateway-assertion.ts): every request a
 * service serves, apart from its health check and its published documents, must carry a valid
 * assertion from the gateway. Anything else gets 401 {"message"} and a warning log line, so a
 * caller that reaches a service's port directly cannot act as anyone.
 */
import type { Request, RequestHandler } from 'express';
import { unauthenticated } from '@wellstream/errors';
import { Logger, redactString } from '@wellstream/logging';
import { ASSERTION_HEADER, AssertionFailure, OPERATOR_HEADER, verifyAssertion } from './gateway-assertion';
import { CALLER_HEADERS, setVerifiedCaller } from './caller';

/** Fetched by the gateway, health probes and metrics scrapers directly, never on behalf of a caller. */
export const UNASSERTED_PATHS = new Set(['/health', '/metrics', '/openapi.json', '/asyncapi.json']);

export function gatewayTrust(options: { keys: readonly string[]; logger: Logger; now?: () => number }): RequestHandler {
  if (options.keys.length === 0) throw new Error('gatewayTrust needs at least one key');
  const now = options.now ?? Date.now;
  return (req, _res, next) => {
    if (UNASSERTED_PATHS.has(req.path)) return next();
    const asserted = assertedFrom(req);
    const failure: AssertionFailure | undefined = verifyAssertion(options.keys, req.header(ASSERTION_HEADER), asserted, now());
    if (failure) {
      options.logger.warn('refused a request the gateway did not vouch for', {
        reason: failure,
        method: req.method,
        path: redactString(req.originalUrl),
        remote_address: req.socket.remoteAddress,
      });
      return next(unauthenticated('GATEWAY_ASSERTION_INVALID', 'Invalid authentication credentials.'));
    }
    setVerifiedCaller(req, {
      customerId: asserted.customerId || undefined,
      organizationId: asserted.organizationId || undefined,
      operator: asserted.operator,
    });
    next();
  };
}

function assertedFrom(req: Request) {
  return {
    method: req.method,
    target: req.originalUrl,
    requestId: req.header('x-request-id') ?? '',
    customerId: req.header(CALLER_HEADERS.customerId) ?? '',
    organizationId: req.header(CALLER_HEADERS.organizationId) ?? '',
    operator: req.header(OPERATOR_HEADER) === '1',
  };
}
