/**
 * The operator's reads of accounts (`GET /v2/admin/…`): customers, organizations, tokens with
 * their hourly usage. Mounted behind the gateway's admin-token check, next to admin.routes.ts.
 * The gateway app does not parse query strings (services parse their own), so this router does.
 */
import express, { Request } from 'express';
import { endpointRoute } from '@wellstream/http';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { AccountRepository } from '../account.repository';
import { gatewayEndpoint } from '../gateway-endpoints';
import { asUnavailable, HOUR_MS, rateLimitKey } from '../../auth/rate-limit';
import { getCustomer, listCustomers } from './customer-reads.usecase';
import { getOrganization, listOrganizations } from './organization-reads.usecase';
import { parsePageQuery } from './paging.schema';
import { getToken, listTokens, TokenUsageReader } from './token-reads.usecase';

/** Repeated parameters become arrays, which the schemas refuse (400) instead of picking one. */
function queryOf(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const search = new URL(req.originalUrl, 'http://x').searchParams;
  for (const [k, v] of search) {
    const prev = out[k];
    out[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
  }
  return out;
}

export function operatorReadRoutes(deps: { repo: AccountRepository; rateLimits: RateLimitStore }): express.Router {
  const r = express.Router();
  const readUsage: TokenUsageReader = (hashes) =>
    deps.rateLimits.usage(hashes.map(rateLimitKey), HOUR_MS).catch((err: unknown) => {
      throw asUnavailable(err, 'Token usage is temporarily unavailable; retry shortly.');
    });
  const tokens = { repo: deps.repo, readUsage };

  endpointRoute(r, gatewayEndpoint('listCustomers'), [], async (req, res) => void res.json(await listCustomers(deps.repo, parsePageQuery(queryOf(req)))));
  endpointRoute(r, gatewayEndpoint('getCustomer'), [], async (req, res) => void res.json(await getCustomer(deps.repo, req.params.customer_id)));
  endpointRoute(r, gatewayEndpoint('listOrganizations'), [], async (req, res) => void res.json(await listOrganizations(deps.repo, req.params.customer_id, parsePageQuery(queryOf(req)))));
  endpointRoute(r, gatewayEndpoint('getOrganization'), [], async (req, res) => void res.json(await getOrganization(deps.repo, req.params.org_id)));
  endpointRoute(r, gatewayEndpoint('listTokens'), [], async (req, res) => void res.json(await listTokens(tokens, req.params.customer_id, parsePageQuery(queryOf(req)))));
  endpointRoute(r, gatewayEndpoint('getToken'), [], async (req, res) => void res.json(await getToken(tokens, req.params.customer_id, req.params.token_id)));
  return r;
}
