/**
 * What every request through the gateway goes through: route lookup, authentication, the rate
 * limit, the organization check, caller headers, then the proxy to the service.
 */
import type { RequestHandler, Response } from 'express';
import { unauthenticated, unavailable } from '@wellstream/errors';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER, route } from '@wellstream/http';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { AccountRepository } from '../accounts/account.repository';
import { authenticate, authorizeOrganization, DeveloperIdentity, Identity } from '../accounts/authenticate.usecase';
import { matchRoute } from '../proxy/route-table';
import { ServiceDirectory, TARGET_SERVICE } from '../proxy/service-proxy';
import { rateLimit } from './rate-limit.middleware';
import { tokenFromRequest } from './token-from-request';

const IDENTITY = 'wsIdentity';
const identityOf = (res: Response) => res.locals[IDENTITY] as DeveloperIdentity;

export function gatewayPipeline(deps: {
  repo: AccountRepository;
  adminToken: string;
  rateLimits: RateLimitStore;
  directory: ServiceDirectory;
}): RequestHandler[] {
  const limiter = rateLimit(deps.rateLimits, identityOf);

  const resolve: RequestHandler = route(async (req, res, next) => {
    // Identity headers are the gateway's to set; never trust a client's.
    for (const h of Object.values(CALLER_HEADERS)) delete req.headers[h];
    delete req.headers[OPERATOR_HEADER];
    delete req.headers[ASSERTION_HEADER];
    const match = matchRoute(req.path);
    if (!match) return next('route');
    const { rule, organizationId } = match;
    if (!deps.directory[rule.service]) throw unavailable('SERVICE_UNAVAILABLE', `The ${rule.service} service is not available.`);
    (req as unknown as Record<string, unknown>)[TARGET_SERVICE] = rule.service;
    res.locals.wsOrganizationId = organizationId;
    if (rule.auth === 'public') return next();
    const identity: Identity = await authenticate(deps.repo, deps.adminToken, tokenFromRequest(req));
    if (rule.auth === 'admin') {
      if (identity.kind !== 'admin') throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      req.headers[OPERATOR_HEADER] = '1';
      return next();
    }
    // A developer route: the operator token is not a customer token.
    if (identity.kind !== 'developer') throw unauthenticated('DEVELOPER_TOKEN_REQUIRED', 'This endpoint needs a developer token.');
    res.locals[IDENTITY] = identity;
    next();
  });

  const limitDevelopers: RequestHandler = (req, res, next) => (res.locals[IDENTITY] ? limiter(req, res, next) : next());

  const authorize: RequestHandler = route(async (req, res, next) => {
    const identity = res.locals[IDENTITY] as DeveloperIdentity | undefined;
    if (identity) {
      const orgId = res.locals.wsOrganizationId as string | undefined;
      if (orgId) await authorizeOrganization(deps.repo, identity.customerId, orgId);
      req.headers[CALLER_HEADERS.customerId] = identity.customerId;
      if (orgId) req.headers[CALLER_HEADERS.organizationId] = orgId;
    }
    next();
  });

  return [resolve, limitDevelopers, authorize];
}
