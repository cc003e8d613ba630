/**
 * DELETE /v2/organizations/:org_id/notification_target → 200 the removed target's view, or 404.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { TargetRepository } from '../target.repository';
import { deleteTarget } from './delete-target.usecase';

export function deleteTargetRoute(
  router: IRouter,
  deps: { targets: TargetRepository; dropPendingItems(organizationId: string): Promise<number> },
): void {
  router.delete(
    '/v2/organizations/:org_id/notification_target',
    route(async (req, res) => {
      const caller = organizationCaller(req);
      res.json(await deleteTarget(deps, caller.organizationId));
    }),
  );
}
