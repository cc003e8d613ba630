/**
 * POST /v2/admin/organizations/:orgId/users/:uid/erasure → 200 (operator only): the user is erased
 * now everywhere; a second call answers 200 with `already_erased: true`.
 */
import type { IRouter } from 'express';
import { route } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { ADMIN_USER_PATH, operatorActor } from '../../operator-only';
import { requestErasure } from '../erase-user.usecase';

export function requestErasureRoute(router: IRouter, deps: LifecycleDeps): void {
  router.post(
    `${ADMIN_USER_PATH}/erasure`,
    route(async (req, res) => {
      const actor = operatorActor(req);
      res.json(await requestErasure(deps, req.params.orgId, req.params.uid, actor));
    }),
  );
}
