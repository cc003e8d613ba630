/**
 * The verifying half of gateway-to-service trust (see gateway-assertion.ts): every request a
 * service serves, apart from its health check and its published documents, must carry a valid
 * assertion from the gateway. Anything else gets 401 {"message"} and a warning log line, so a
 * caller that reaches a service's port directly cannot act as anyone.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, unauthenticated } from '@wellstream/errors';
import { Logger, redactString } from '@wellstream/logging';
import { ASSERTION_HEADER, AssertionFailure, OPERATOR_HEADER, verifyAssertion } from './gateway-assertion';
import { CALLER_HEADERS, setVerifiedCaller } from './caller';

/** Fetched by the gateway, health probes and metrics scrapers directly, never on behalf of a caller. */
export const UNASSERTED_PATHS = new Set(['/health', '/metrics', '/openapi.json', '/asyncapi.json']);

export interface GatewayTrustOptions {
  keys: readonly string[];
  logger: Logger;
  now?: () => number;
}

export interface VerifiedCall {
  customerId?: string;
  organizationId?: string;
  operator: boolean;
}

export function gatewayTrust(options: GatewayTrustOptions): RequestHandler {
  if (options.keys.length === 0) throw new Error('gatewayTrust needs at least one key');
  return (req, _res, next) => {
    if (UNASSERTED_PATHS.has(req.path)) return next();
    const verified = verifyGatewayCall(options, req, req.originalUrl);
    if (verified instanceof AppError) return next(verified);
    setVerifiedCaller(req, verified);
    next();
  };
}

/**
 * Checks a request's assertion (for paths served without express too): the caller the gateway
 * vouched for, or the 401 to answer. `target` is the path and query as the gateway forwarded them.
 */
export function verifyGatewayCall(options: GatewayTrustOptions, req: IncomingMessage, target: string): VerifiedCall | AppError {
  const header = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const asserted = {
    method: req.method ?? '',
    target,
    requestId: header('x-request-id') ?? '',
    customerId: header(CALLER_HEADERS.customerId) ?? '',
    organizationId: header(CALLER_HEADERS.organizationId) ?? '',
    operator: header(OPERATOR_HEADER) === '1',
  };
  const failure: AssertionFailure | undefined = verifyAssertion(options.keys, header(ASSERTION_HEADER), asserted, (options.now ?? Date.now)());
  if (failure) {
    options.logger.warn('refused a request the gateway did not vouch for', {
      reason: failure,
      method: req.method,
      path: redactString(target),
      remote_address: req.socket.remoteAddress,
    });
    return unauthenticated('GATEWAY_ASSERTION_INVALID', 'Invalid authentication credentials.');
  }
  return { customerId: asserted.customerId || undefined, organizationId: asserted.organizationId || undefined, operator: asserted.operator };
}
