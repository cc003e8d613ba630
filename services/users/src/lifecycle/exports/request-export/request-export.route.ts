/**
 * POST /v2/admin/organizations/:orgId/users/:uid/exports → 202, the export job (operator only).
 */
import type { IRouter } from 'express';
import { route } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { ADMIN_USER_PATH, operatorActor } from '../../operator-only';
import { exportView } from '../export.views';
import { requestExport } from './request-export.usecase';

export function requestExportRoute(router: IRouter, deps: LifecycleDeps): void {
  router.post(
    `${ADMIN_USER_PATH}/exports`,
    route(async (req, res) => {
      const actor = operatorActor(req);
      const job = await requestExport(deps, req.params.orgId, req.params.uid, actor);
      res.status(202).json(exportView(job, deps));
    }),
  );
}
