/**
 * POST /v2/organizations/:orgId/users/:uid/marketplace → {"marketplace":{token,url}}.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { USER_PATH } from '../user-paths';
import { refreshMarketplace } from './refresh-marketplace.usecase';

export function refreshMarketplaceRoute(router: IRouter, deps: UsersDeps): void {
  router.post(
    `${USER_PATH}/marketplace`,
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      const user = await refreshMarketplace(deps, organizationId, req.params.uid);
      res.json({ marketplace: { token: user.marketplace_token, url: deps.marketplaceUrl(user.marketplace_token) } });
    }),
  );
}
