/**
 * POST /v2/organizations/:org_id/notifications/:id/redeliver → 202 the batch (a round queued).
 */
import type express from 'express';
import { route } from '@wellstream/http';
import { callerOrganization } from '../../caller-organization';
import type { BatchRepository } from '../batch.repository';
import { redeliverBatch } from './redeliver-batch.usecase';

export function redeliverBatchRoute(app: express.Express, deps: { batches: BatchRepository; wake(): void }): void {
  app.post(
    '/v2/organizations/:org_id/notifications/:id/redeliver',
    route(async (req, res) => {
      const { organizationId } = callerOrganization(req);
      res.status(202).json(await redeliverBatch(deps, organizationId, req.params.id));
    }),
  );
}
