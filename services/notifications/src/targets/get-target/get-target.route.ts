/**
 * GET /v2/organizations/:org_id/notification_target → 200 target view, or 404.
 */
import type express from 'express';
import { callerOrganization } from '../../caller-organization';
import { route } from '@wellstream/http';
import type { TargetRepository } from '../target.repository';
import { getTarget } from './get-target.usecase';

export function getTargetRoute(app: express.Express, deps: { targets: TargetRepository }): void {
  app.get(
    '/v2/organizations/:org_id/notification_target',
    route(async (req, res) => {
      const caller = callerOrganization(req);
      res.json(await getTarget(deps, caller.organizationId));
    }),
  );
}
