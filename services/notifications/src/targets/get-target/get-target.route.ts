/**
 * GET /v2/organizations/:org_id/notification_target → 200 target view, or 404.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import type { TargetRepository } from '../target.repository';
import { getTarget } from './get-target.usecase';

export function getTargetRoute(router: IRouter, deps: { targets: TargetRepository }): void {
  endpointRoute(router, notificationsEndpoint('getNotificationTarget'), [], async (req, res) => {
    const caller = organizationCaller(req);
    res.json(await getTarget(deps, caller.organizationId));
  });
}
