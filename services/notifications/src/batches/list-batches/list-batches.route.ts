/**
 * GET /v2/organizations/:org_id/notifications → {"data":[…], "meta":{…}}; bad filters → 400 by field.
 */
import type { IRouter } from 'express';
import { badRequest } from '@wellstream/errors';
import { endpointRoute, organizationCaller, validate } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import type { BatchRepository } from '../batch.repository';
import { listBatches } from './list-batches.usecase';
import { listBatchesSchema } from './list-batches.schema';

export function listBatchesRoute(router: IRouter, deps: { batches: BatchRepository }): void {
  endpointRoute(router, notificationsEndpoint('listNotificationBatches'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const q = validate(listBatchesSchema, req.query, { kind: 'bad_request', code: 'INVALID_FILTER' });
    // Same fixed-width format, so text order is time order.
    if (q.start_time && q.end_time && q.start_time > q.end_time) {
      throw badRequest('INVALID_FILTER', { end_time: ['end_time must not be before start_time'] });
    }
    res.json(
      await listBatches(deps, {
        organizationId,
        startTime: q.start_time,
        endTime: q.end_time,
        status: q.status,
        offset: q.offset,
        limit: q.limit,
      }),
    );
  });
}
