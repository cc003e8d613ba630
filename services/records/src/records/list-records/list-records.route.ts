/**
 * GET /v2/organizations/:org_id/users/:uid/:object_type → {"data":[records]}, written page by
 * page: a large range is read and encoded in slices that share the process's budget for long
 * reads with replays and stream catch-up, so it never stalls other customers' requests.
 */
import type { IRouter } from 'express';
import { TimeSlice } from '@wellstream/bus';
import { RESOURCE_PATHS } from '@wellstream/catalog';
import { endpointRoute, organizationCaller, sendJsonPages } from '@wellstream/http';
import { recordsEndpoint } from '../../records-endpoints';
import { listRecords, ListRecordsDeps } from './list-records.usecase';

/** One declared list per record type (`listSleep`, …), named for its path. */
const listOperationId = (plural: string) => `list${plural[0].toUpperCase()}${plural.slice(1)}`;

export function listRecordsRoute(router: IRouter, deps: ListRecordsDeps): void {
  for (const objectType of Object.keys(RESOURCE_PATHS)) {
    endpointRoute(router, recordsEndpoint(listOperationId(objectType)), [], async (req, res) => {
      const caller = organizationCaller(req);
      const pages = await listRecords(deps, {
        customerId: caller.customerId,
        organizationId: caller.organizationId,
        uid: req.params.uid,
        objectType,
        query: req.query,
      });
      const slice = new TimeSlice({ givesWay: true });
      await sendJsonPages(res, 'data', pages, () => slice.pause());
    });
  }
}
