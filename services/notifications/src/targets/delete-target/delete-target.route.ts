/**
 * DELETE /v2/organizations/:org_id/notification_target → 200 the removed target's view, or 404.
 */
import type express from 'express';
import { callerOrganization } from '../../caller-organization';
import { route } from '@wellstream/http';
import type { TargetRepository } from '../target.repository';
import { deleteTarget } from './delete-target.usecase';

export function deleteTargetRoute(
  app: express.Express,
  deps: { targets: TargetRepository; dropPendingItems(organizationId: string): Promise<number> },
): void {
  app.delete(
    '/v2/organizations/:org_id/notification_target',
    route(async (req, res) => {
      const caller = callerOrganization(req);
      res.json(await deleteTarget(deps, caller.organizationId));
    }),
  );
}
