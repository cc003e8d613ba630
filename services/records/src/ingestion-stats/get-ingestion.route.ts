/**
 * GET /v2/admin/organizations/:org_id/ingestion (the operator token only): records stored per day.
 */
import type { IRouter } from 'express';
import { unauthenticated } from '@wellstream/errors';
import { isOperatorCall, route, validate } from '@wellstream/http';
import { ingestionQuerySchema } from './get-ingestion.schema';
import { getIngestion, IngestionStatsDeps } from './get-ingestion.usecase';

export function ingestionStatsRoute(router: IRouter, deps: IngestionStatsDeps): void {
  router.get(
    '/v2/admin/organizations/:org_id/ingestion',
    route(async (req, res) => {
      if (!isOperatorCall(req)) throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      const query = validate(ingestionQuerySchema, req.query, { kind: 'bad_request', code: 'INVALID_RANGE' });
      res.json(await getIngestion(deps, req.params.org_id, query));
    }),
  );
}
