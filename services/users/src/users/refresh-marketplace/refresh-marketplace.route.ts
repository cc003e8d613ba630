/**
 * POST /v2/organizations/:org_id/users/:uid/marketplace → {"marketplace":{token,url}}.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { refreshMarketplace } from './refresh-marketplace.usecase';

export function refreshMarketplaceRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('refreshMarketplace'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await refreshMarketplace(deps, organizationId, req.params.uid);
    res.json({ marketplace: { token: user.marketplace_token, url: deps.marketplaceUrl(user.marketplace_token) } });
  });
}
