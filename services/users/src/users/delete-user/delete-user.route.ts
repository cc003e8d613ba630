/**
 * DELETE /v2/organizations/:orgId/users/:uid → the user with `deleted_at`.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { USER_PATH } from '../user-paths';
import { deletedUserView } from '../user.views';
import { deleteUser } from './delete-user.usecase';

export function deleteUserRoute(router: IRouter, deps: UsersDeps): void {
  router.delete(
    USER_PATH,
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      const user = await deleteUser(deps, organizationId, req.params.uid);
      res.json(deletedUserView(user, deps.marketplaceUrl));
    }),
  );
}
