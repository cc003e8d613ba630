/**
 * The operator's reads of accounts (`GET /v2/admin/…`): customers, organizations, tokens with
 * their hourly usage. Mounted behind the gateway's admin-token check, next to admin.routes.ts.
 * The gateway app does not parse query strings (services parse their own), so this router does.
 */
import express, { Request } from 'express';
import { route } from '@wellstream/http';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { AccountRepository } from '../account.repository';
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

  r.get('/customers', route(async (req, res) => void res.json(await listCustomers(deps.repo, parsePageQuery(queryOf(req))))));
  r.get('/customers/:customerId', route(async (req, res) => void res.json(await getCustomer(deps.repo, req.params.customerId))));
  r.get(
    '/customers/:customerId/organizations',
    route(async (req, res) => void res.json(await listOrganizations(deps.repo, req.params.customerId, parsePageQuery(queryOf(req))))),
  );
  r.get('/organizations/:orgId', route(async (req, res) => void res.json(await getOrganization(deps.repo, req.params.orgId))));
  r.get('/customers/:customerId/tokens', route(async (req, res) => void res.json(await listTokens(tokens, req.params.customerId, parsePageQuery(queryOf(req))))));
  r.get('/customers/:customerId/tokens/:tokenId', route(async (req, res) => void res.json(await getToken(tokens, req.params.customerId, req.params.tokenId))));
  return r;
}
