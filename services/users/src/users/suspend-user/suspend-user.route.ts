/**
 * POST /v2/admin/organizations/:orgId/users/:uid/suspend and /unsuspend (operator only: the
 * gateway vouches for the operator in its signed caller assertion after checking the admin token).
 */
import type { Request, RequestHandler } from 'express';
import { isOperatorCall, route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { adminOnly } from '../user.errors';
import { adminUserView } from '../user.views';
import { setSuspended } from './suspend-user.usecase';

function requireOperator(req: Request): void {
  if (!isOperatorCall(req)) throw adminOnly();
}

export const suspendUserRoute = (deps: UsersDeps, suspended: boolean): RequestHandler =>
  route(async (req, res) => {
    requireOperator(req);
    const user = await setSuspended(deps, req.params.orgId, req.params.uid, suspended);
    res.json(adminUserView(user, deps.marketplaceUrl));
  });
