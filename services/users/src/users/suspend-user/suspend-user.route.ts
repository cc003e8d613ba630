/**
 * POST /v2/admin/organizations/:orgId/users/:uid/suspend and /unsuspend (operator only: the
 * gateway vouches for the operator in its signed caller assertion after checking the admin token).
 */
import type { IRouter, Request } from 'express';
import { isOperatorCall, route } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { adminOnly } from '../user.errors';
import { adminUserView } from '../user.views';
import { setSuspended } from './suspend-user.usecase';

function requireOperator(req: Request): void {
  if (!isOperatorCall(req)) throw adminOnly();
}

const ADMIN_USER_PATH = '/v2/admin/organizations/:orgId/users/:uid';

/** POST …/suspend and …/unsuspend: the operator token only. */
export function suspendUserRoute(router: IRouter, deps: UsersDeps): void {
  for (const suspended of [true, false]) {
    router.post(
      `${ADMIN_USER_PATH}/${suspended ? 'suspend' : 'unsuspend'}`,
      route(async (req, res) => {
        requireOperator(req);
        const user = await setSuspended(deps, req.params.orgId, req.params.uid, suspended);
        res.json(adminUserView(user, deps.marketplaceUrl));
      }),
    );
  }
}
