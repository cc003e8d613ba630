/**
 * GET /v2/organizations/:org_id/notifications/:id → the batch, or 404 {"errors":[…]}.
 */
import type express from 'express';
import { route } from '@wellstream/http';
import { callerOrganization } from '../../caller-organization';
import type { BatchRepository } from '../batch.repository';
import { getBatch } from './get-batch.usecase';

export function getBatchRoute(app: express.Express, deps: { batches: BatchRepository }): void {
  app.get(
    '/v2/organizations/:org_id/notifications/:id',
    route(async (req, res) => {
      const { organizationId } = callerOrganization(req);
      res.json(await getBatch(deps, organizationId, req.params.id));
    }),
  );
}
