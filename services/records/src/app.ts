/**
 * The records service's routes: mobile ingestion and the record lists. The skeleton
 * (libs/runtime) mounts them behind the organization guard.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import { ingestMobileRecordsRoute } from './records/ingest-records/ingest-mobile-records.route';
import type { IngestDeps } from './records/ingest-records/ingest-records.usecase';
import { listRecordsRoute } from './records/list-records/list-records.route';
import type { ListRecordsDeps } from './records/list-records/list-records.usecase';
import type { MobileUserFinder } from './users/mobile-user-finder';

export interface RecordsRouteDeps {
  ingest: IngestDeps;
  mobileUsers: MobileUserFinder;
  list: ListRecordsDeps;
}

export const recordsRoutes = (deps: RecordsRouteDeps): RouteRegistration[] => [
  (router) => ingestMobileRecordsRoute(router, { ...deps.ingest, mobileUsers: deps.mobileUsers }),
  (router) => listRecordsRoute(router, deps.list),
];
