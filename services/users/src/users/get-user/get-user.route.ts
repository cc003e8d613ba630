/**
 * GET /v2/organizations/:orgId/users/:uid → the user with its mobile token. Reading needs no
 * behaviour beyond the lookup, so there is no separate use case file.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { USER_PATH } from '../user-paths';
import { findVisibleUser } from '../find-user';
import { userDetailView } from '../user.views';

export function getUserRoute(router: IRouter, deps: UsersDeps): void {
  router.get(
    USER_PATH,
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      const user = await findVisibleUser(deps.repo, organizationId, req.params.uid);
      res.json(userDetailView(user, deps.marketplaceUrl));
    }),
  );
}
