/**
 * GET /v2/organizations/:org_id/users/:uid/:object_type → {"data":[records]}, written page by
 * page: a large range is read and encoded in slices that share the process's budget for long
 * reads with replays and stream catch-up, so it never stalls other customers' requests.
 */
import type { IRouter } from 'express';
import { TimeSlice } from '@wellstream/bus';
import { RESOURCE_PATHS } from '@wellstream/catalog';
import { organizationCaller, route, sendJsonPages } from '@wellstream/http';
import { listRecords, ListRecordsDeps } from './list-records.usecase';

export const RECORD_LIST_PATH = `/v2/organizations/:org_id/users/:uid/:object_type(${Object.keys(RESOURCE_PATHS).join('|')})`;

export function listRecordsRoute(router: IRouter, deps: ListRecordsDeps): void {
  router.get(
    RECORD_LIST_PATH,
    route(async (req, res) => {
      const caller = organizationCaller(req);
      const pages = await listRecords(deps, {
        customerId: caller.customerId,
        organizationId: caller.organizationId,
        uid: req.params.uid,
        objectType: req.params.object_type,
        query: req.query,
      });
      const slice = new TimeSlice({ givesWay: true });
      await sendJsonPages(res, 'data', pages, () => slice.pause());
    }),
  );
}
