/**
 * POST /v2/admin/organizations/:org_id/users/:uid/exports → 202, the export job (operator only).
 */
import type { IRouter } from 'express';
import { answerIsAboutUser, endpointRoute } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { operatorActor } from '../../operator-only';
import { usersEndpoint } from '../../../users-endpoints';
import { exportView } from '../export.views';
import { requestExport } from './request-export.usecase';

export function requestExportRoute(router: IRouter, deps: LifecycleDeps): void {
  endpointRoute(router, usersEndpoint('requestUserExport'), [], async (req, res) => {
    const actor = operatorActor(req);
    const job = await requestExport(deps, req.params.org_id, req.params.uid, actor);
    answerIsAboutUser(res, job.user_id);
    res.status(202).json(exportView(job, deps));
  });
}
