/**
 * GET /v2/organizations/:org_id/notifications/:id → the batch, or 404 {"errors":[…]}.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import type { BatchRepository } from '../batch.repository';
import type { GoneUsersSource } from '../../withheld/withhold-gone';
import { getBatch } from './get-batch.usecase';

export function getBatchRoute(router: IRouter, deps: { batches: BatchRepository; gone: GoneUsersSource }): void {
  endpointRoute(router, notificationsEndpoint('getNotificationBatch'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    res.json(await getBatch(deps, organizationId, req.params.id));
  });
}
