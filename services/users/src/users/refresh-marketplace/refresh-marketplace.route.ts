/**
 * POST /v2/organizations/:orgId/users/:uid/marketplace → {"marketplace":{token,url}}.
 */
import type { RequestHandler } from 'express';
import { route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { organizationCaller } from '../organization-caller';
import { refreshMarketplace } from './refresh-marketplace.usecase';

export const refreshMarketplaceRoute = (deps: UsersDeps): RequestHandler =>
  route(async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await refreshMarketplace(deps, organizationId, req.params.uid);
    res.json({ marketplace: { token: user.marketplace_token, url: deps.marketplaceUrl(user.marketplace_token) } });
  });
