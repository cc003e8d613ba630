/**
 * GET /v2/admin/organizations/:org_id/ingestion (the operator token only): records stored per day.
 */
import type { IRouter } from 'express';
import { unauthenticated } from '@wellstream/errors';
import { endpointRoute, isOperatorCall, validate } from '@wellstream/http';
import { recordsEndpoint } from '../records-endpoints';
import { ingestionQuerySchema } from './get-ingestion.schema';
import { getIngestion, IngestionStatsDeps } from './get-ingestion.usecase';

export function ingestionStatsRoute(router: IRouter, deps: IngestionStatsDeps): void {
  // The operator check answers before the query is looked at, so the query is checked here.
  endpointRoute(router, recordsEndpoint('adminGetIngestion'), [], async (req, res) => {
    if (!isOperatorCall(req)) throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
    const query = validate(ingestionQuerySchema, req.query, { kind: 'bad_request', code: 'INVALID_RANGE' });
    res.json(await getIngestion(deps, req.params.org_id, query));
  });
}
