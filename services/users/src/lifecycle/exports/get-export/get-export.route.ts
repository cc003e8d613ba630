/**
 * GET /v2/admin/organizations/:orgId/users/:uid/exports/:exportId → the job and its progress;
 * once ready, a download link valid for WELLSTREAM_EXPORT_LINK_TTL_S (a new one on every GET).
 */
import type { IRouter } from 'express';
import { route } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { exportNotFound } from '../../lifecycle.errors';
import { ADMIN_USER_PATH, operatorActor } from '../../operator-only';
import { exportView } from '../export.views';

export function getExportRoute(router: IRouter, deps: LifecycleDeps): void {
  router.get(
    `${ADMIN_USER_PATH}/exports/:exportId`,
    route(async (req, res) => {
      operatorActor(req);
      const job = await deps.exports.byId(req.params.exportId);
      if (!job || job.organization_id !== req.params.orgId || job.uid !== req.params.uid) throw exportNotFound(req.params.exportId);
      res.json(exportView(job, deps));
    }),
  );
}
