/**
 * GET /v2/organizations/:orgId/users/:uid → the user with its mobile token. Reading needs no
 * behaviour beyond the lookup, so there is no separate use case file.
 */
import type { RequestHandler } from 'express';
import { route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { organizationCaller } from '../organization-caller';
import { findVisibleUser } from '../find-user';
import { userDetailView } from '../user.views';

export const getUserRoute = (deps: UsersDeps): RequestHandler =>
  route(async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await findVisibleUser(deps.repo, organizationId, req.params.uid);
    res.json(userDetailView(user, deps.marketplaceUrl));
  });
