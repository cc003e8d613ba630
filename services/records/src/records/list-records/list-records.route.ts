/**
 * GET /v2/organizations/:org_id/users/:uid/:object_type → {"data":[records]}.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import { listRecords, ListRecordsDeps } from './list-records.usecase';

export const RECORD_LIST_PATH = '/v2/organizations/:org_id/users/:uid/:object_type(measurements|nutrition|sleep|summaries|workouts|intraday)';

export function listRecordsRoute(router: IRouter, deps: ListRecordsDeps): void {
  router.get(
    RECORD_LIST_PATH,
    route(async (req, res) => {
      const caller = organizationCaller(req);
      const data = await listRecords(deps, {
        customerId: caller.customerId,
        organizationId: caller.organizationId,
        uid: req.params.uid,
        objectType: req.params.object_type,
        query: req.query,
      });
      res.json({ data });
    }),
  );
}
