/**
 * What every request through the gateway goes through: route lookup, authentication, the rate
 * limit, the organization check, caller headers, then the proxy to the service. One handler, not
 * a chain of middleware: each hop through express and a promise costs as much as the checks.
 */
import type { RequestHandler } from 'express';
import { unauthenticated, unavailable } from '@wellstream/errors';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER } from '@wellstream/http';
import type { RateLimitStore } from '@wellstream/ratelimit';
import { AccountLookups, authenticate, authorizeOrganization, DeveloperIdentity } from '../accounts/authenticate.usecase';
import { matchRoute } from '../proxy/route-table';
import { ServiceDirectory, TARGET_SERVICE } from '../proxy/service-proxy';
import { rateLimit } from './rate-limit.middleware';
import { tokenFromRequest } from './token-from-request';

const IDENTITY = 'wsIdentity';

export function gatewayPipeline(deps: {
  accounts: AccountLookups;
  adminHash: Buffer;
  rateLimits: RateLimitStore;
  directory: ServiceDirectory;
}): RequestHandler {
  const handle = async (...[req, res, next]: Parameters<RequestHandler>): Promise<void> => {
    // The gateway parses no query (its `{}` would stand in for the query of an in-process service,
    // whose own app parses it when there is none).
    delete (req as { query?: unknown }).query;
    // Identity headers are the gateway's to set; never trust a client's.
    for (const h of Object.values(CALLER_HEADERS)) delete req.headers[h];
    delete req.headers[OPERATOR_HEADER];
    delete req.headers[ASSERTION_HEADER];
    const match = matchRoute(req.path);
    if (!match) return next('route');
    const { rule, organizationId } = match;
    if (!deps.directory[rule.service]) throw unavailable('SERVICE_UNAVAILABLE', `The ${rule.service} service is not available.`);
    (req as unknown as Record<string, unknown>)[TARGET_SERVICE] = rule.service;
    if (rule.auth === 'public') return next();
    const identity = await authenticate(deps.accounts, deps.adminHash, tokenFromRequest(req));
    if (rule.auth === 'admin') {
      if (identity.kind !== 'admin') throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      req.headers[OPERATOR_HEADER] = '1';
      return next();
    }
    // A developer route: the operator token is not a customer token.
    if (identity.kind !== 'developer') throw unauthenticated('DEVELOPER_TOKEN_REQUIRED', 'This endpoint needs a developer token.');
    res.locals[IDENTITY] = identity;
    await limit(req, res);
    if (organizationId) await authorizeOrganization(deps.accounts, identity.customerId, organizationId);
    req.headers[CALLER_HEADERS.customerId] = identity.customerId;
    if (organizationId) req.headers[CALLER_HEADERS.organizationId] = organizationId;
    next();
  };

  // The limit stays the rate-limit middleware's (one store call, headers, 429); run inline here.
  const limiter = rateLimit(deps.rateLimits, (res) => res.locals[IDENTITY] as DeveloperIdentity);
  const limit = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) =>
    new Promise<void>((resolve, reject) => limiter(req, res, (err?: unknown) => (err ? reject(err) : resolve())));

  return (req, res, next) => {
    handle(req, res, next).catch(next);
  };
}

