/**
 * GET /v2/organizations/:org_id/notifications/:id → the batch, or 404 {"errors":[…]}.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { BatchRepository } from '../batch.repository';
import type { GoneUsersSource } from '../../withheld/withhold-gone';
import { getBatch } from './get-batch.usecase';

export function getBatchRoute(router: IRouter, deps: { batches: BatchRepository; gone: GoneUsersSource }): void {
  router.get(
    '/v2/organizations/:org_id/notifications/:id',
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      res.json(await getBatch(deps, organizationId, req.params.id));
    }),
  );
}
