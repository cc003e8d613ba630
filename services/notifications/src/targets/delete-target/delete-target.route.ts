/**
 * DELETE /v2/organizations/:org_id/notification_target → 200 the removed target's view, or 404.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import type { TargetRepository } from '../target.repository';
import { deleteTarget } from './delete-target.usecase';

export function deleteTargetRoute(
  router: IRouter,
  deps: { targets: TargetRepository; dropPendingItems(organizationId: string): Promise<number> },
): void {
  endpointRoute(router, notificationsEndpoint('deleteNotificationTarget'), [], async (req, res) => {
    const caller = organizationCaller(req);
    res.json(await deleteTarget(deps, caller.organizationId));
  });
}
