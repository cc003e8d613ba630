/**
 * DELETE /v2/organizations/:org_id/users/:uid → the user with `deleted_at`.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { deletedUserView } from '../user.views';
import { deleteUser } from './delete-user.usecase';

export function deleteUserRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('deleteUser'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await deleteUser(deps, organizationId, req.params.uid);
    res.json(deletedUserView(user, deps.marketplaceUrl));
  });
}
