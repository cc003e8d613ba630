/**
 * GET /v2/organizations/:org_id/users/:uid/:object_type → {"data":[records]}.
 */
import type express from 'express';
import { callerOf, route } from '@wellstream/http';
import { listRecords, ListRecordsDeps } from './list-records.usecase';

export const RECORD_LIST_PATH = '/v2/organizations/:org_id/users/:uid/:object_type(measurements|nutrition|sleep|summaries|workouts|intraday)';

export function listRecordsRoute(app: express.Express, deps: ListRecordsDeps): void {
  app.get(
    RECORD_LIST_PATH,
    route(async (req, res) => {
      const caller = callerOf(req);
      const data = await listRecords(deps, {
        customerId: caller.customerId,
        organizationId: req.params.org_id,
        uid: req.params.uid,
        objectType: req.params.object_type,
        query: req.query,
      });
      res.json({ data });
    }),
  );
}
