/**
 * What every request to a service goes through before it is forwarded: caller headers cleared,
 * the organization id decoded, authentication, the rate limit, the organization check, then the
 * caller headers set for the service. Resolves when the request may go on; rejects with the error
 * to answer. One async function on node's request and response, not a chain of express
 * middleware: each hop through express and a promise cost as much as the checks.
 */
import { unauthenticated, unavailable } from '@wellstream/errors';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER } from '@wellstream/http';
import type { RateLimitStore } from '@wellstream/ratelimit';
import { AccountLookups, authenticate, authorizeOrganization } from '../accounts/authenticate.usecase';
import type { GatewayPipeline } from '../proxy/forward-request';
import { decodeOrganizationId } from '../proxy/route-table';
import type { ServiceDirectory } from '../proxy/service-proxy';
import { rateLimiter } from './rate-limit';
import { tokenFromRequest } from './token-from-request';

/** Identity headers are the gateway's to set; a client's are dropped. */
const GATEWAY_HEADERS = [...Object.values(CALLER_HEADERS), OPERATOR_HEADER, ASSERTION_HEADER];

export function gatewayPipeline(deps: { accounts: AccountLookups; adminHash: Buffer; rateLimits: RateLimitStore; directory: ServiceDirectory }): GatewayPipeline {
  const limit = rateLimiter(deps.rateLimits);
  return async (req, res, { rule, organizationSegment }) => {
    for (const h of GATEWAY_HEADERS) delete req.headers[h];
    const organizationId = organizationSegment === undefined ? undefined : decodeOrganizationId(organizationSegment);
    if (!deps.directory[rule.service]) throw unavailable('SERVICE_UNAVAILABLE', `The ${rule.service} service is not available.`);
    if (rule.auth === 'public') return;
    const identity = await authenticate(deps.accounts, deps.adminHash, tokenFromRequest(req));
    if (rule.auth === 'admin') {
      if (identity.kind !== 'admin') throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      req.headers[OPERATOR_HEADER] = '1';
      return;
    }
    // A developer route: the operator token is not a customer token.
    if (identity.kind !== 'developer') throw unauthenticated('DEVELOPER_TOKEN_REQUIRED', 'This endpoint needs a developer token.');
    await limit(identity, res);
    if (organizationId) await authorizeOrganization(deps.accounts, identity.customerId, organizationId);
    req.headers[CALLER_HEADERS.customerId] = identity.customerId;
    if (organizationId) req.headers[CALLER_HEADERS.organizationId] = organizationId;
  };
}
