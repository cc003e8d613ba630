/**
 * POST /v2/organizations/:org_id/notifications/:id/redeliver → 202 the batch (a round queued).
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import type { BatchRepository } from '../batch.repository';
import type { GoneUsersSource } from '../../withheld/withhold-gone';
import { redeliverBatch } from './redeliver-batch.usecase';
import type { Clock } from '@wellstream/clock';

export function redeliverBatchRoute(router: IRouter, deps: { batches: BatchRepository; wake(): void; clock: Clock; gone: GoneUsersSource }): void {
  endpointRoute(router, notificationsEndpoint('redeliverNotificationBatch'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    res.status(202).json(await redeliverBatch(deps, organizationId, req.params.id));
  });
}
