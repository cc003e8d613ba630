/**
 * POST /v2/admin/organizations/:org_id/users/:uid/erasure → 200 (operator only): the user is erased
 * now everywhere; a second call answers 200 with `already_erased: true`.
 */
import type { IRouter } from 'express';
import { endpointRoute } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { operatorActor } from '../../operator-only';
import { usersEndpoint } from '../../../users-endpoints';
import { requestErasure } from '../erase-user.usecase';

export function requestErasureRoute(router: IRouter, deps: LifecycleDeps): void {
  endpointRoute(router, usersEndpoint('eraseUser'), [], async (req, res) => {
    const actor = operatorActor(req);
    res.json(await requestErasure(deps, req.params.org_id, req.params.uid, actor));
  });
}
