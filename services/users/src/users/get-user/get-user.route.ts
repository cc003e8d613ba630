/**
 * GET /v2/organizations/:org_id/users/:uid → the user with its mobile token. Reading needs no
 * behaviour beyond the lookup, so there is no separate use case file.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { findVisibleUser } from '../find-user';
import { userDetailView } from '../user.views';

export function getUserRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('getUser'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await findVisibleUser(deps.repo, organizationId, req.params.uid);
    res.json(userDetailView(user, deps.marketplaceUrl));
  });
}
