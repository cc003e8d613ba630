/**
 * POST /v2/admin/organizations/:org_id/users/:uid/suspend and /unsuspend (operator only: the
 * gateway vouches for the operator in its signed caller assertion after checking the admin token).
 */
import type { IRouter, Request } from 'express';
import { endpointRoute, isOperatorCall } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { adminOnly } from '../user.errors';
import { adminUserView } from '../user.views';
import { setSuspended } from './suspend-user.usecase';

function requireOperator(req: Request): void {
  if (!isOperatorCall(req)) throw adminOnly();
}

/** POST …/suspend and …/unsuspend: the operator token only. */
export function suspendUserRoute(router: IRouter, deps: UsersDeps): void {
  for (const suspended of [true, false]) {
    endpointRoute(router, usersEndpoint(suspended ? 'suspendUser' : 'unsuspendUser'), [], async (req, res) => {
      requireOperator(req);
      const user = await setSuspended(deps, req.params.org_id, req.params.uid, suspended);
      res.json(adminUserView(user, deps.marketplaceUrl));
    });
  }
}
