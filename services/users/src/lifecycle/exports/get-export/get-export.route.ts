/**
 * GET /v2/admin/organizations/:org_id/users/:uid/exports/:export_id → the job and its progress;
 * once ready, a download link valid for WELLSTREAM_EXPORT_LINK_TTL_S (a new one on every GET).
 */
import type { IRouter } from 'express';
import { endpointRoute } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { exportNotFound } from '../../lifecycle.errors';
import { operatorActor } from '../../operator-only';
import { usersEndpoint } from '../../../users-endpoints';
import { exportView } from '../export.views';

export function getExportRoute(router: IRouter, deps: LifecycleDeps): void {
  endpointRoute(router, usersEndpoint('getUserExport'), [], async (req, res) => {
    operatorActor(req);
    const job = await deps.exports.byId(req.params.export_id);
    if (!job || job.organization_id !== req.params.org_id || job.uid !== req.params.uid) throw exportNotFound(req.params.export_id);
    res.json(exportView(job, deps));
  });
}
