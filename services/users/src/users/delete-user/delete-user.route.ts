/**
 * DELETE /v2/organizations/:orgId/users/:uid → the user with `deleted_at`.
 */
import type { RequestHandler } from 'express';
import { route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { organizationCaller } from '../organization-caller';
import { deletedUserView } from '../user.views';
import { deleteUser } from './delete-user.usecase';

export const deleteUserRoute = (deps: UsersDeps): RequestHandler =>
  route(async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await deleteUser(deps, organizationId, req.params.uid);
    res.json(deletedUserView(user, deps.marketplaceUrl));
  });
