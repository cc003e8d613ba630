/**
 * The records service's routes: mobile ingestion, the record lists (plain and merged), the
 * organizations' source priority, users' data availability and the FHIR read API. The skeleton
 * (libs/runtime) mounts them behind the organization guard.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import { ingestMobileRecordsRoute } from './records/ingest-records/ingest-mobile-records.route';
import type { IngestDeps } from './records/ingest-records/ingest-records.usecase';
import { listRecordsRoute } from './records/list-records/list-records.route';
import type { ListRecordsDeps } from './records/list-records/list-records.usecase';
import type { MobileUserFinder } from './users/mobile-user-finder';
import { availabilityRoute } from './availability/get-availability.route';
import type { AvailabilityDeps } from './availability/get-availability.usecase';
import { ingestionStatsRoute } from './ingestion-stats/get-ingestion.route';
import type { IngestionStatsDeps } from './ingestion-stats/get-ingestion.usecase';
import { sourcePriorityRoutes } from './priority/source-priority.route';
import { fhirRoutes } from './fhir/fhir.routes';
import { fhirExportRoutes } from './fhir/export/export.routes';
import type { ExportDeps } from './fhir/export/export.usecase';
import type { FhirReadDeps } from './fhir/fhir-read.usecase';
import type { Logger } from '@wellstream/logging';
import type { SourcePriorityDeps } from './priority/source-priority.usecase';

export interface RecordsRouteDeps {
  ingest: IngestDeps;
  mobileUsers: MobileUserFinder;
  list: ListRecordsDeps;
  priority: SourcePriorityDeps;
  availability: AvailabilityDeps;
  ingestion: IngestionStatsDeps;
  fhir: Omit<FhirReadDeps, 'pause'> & { logger: Logger };
  fhirExport: ExportDeps & { logger: Logger };
}

export const recordsRoutes = (deps: RecordsRouteDeps): RouteRegistration[] => [
  (router) => ingestMobileRecordsRoute(router, { ...deps.ingest, mobileUsers: deps.mobileUsers, connections: deps.availability.connections }),
  (router) => listRecordsRoute(router, deps.list),
  (router) => sourcePriorityRoutes(router, deps.priority),
  (router) => availabilityRoute(router, deps.availability),
  (router) => ingestionStatsRoute(router, deps.ingestion),
  // Before the FHIR routes, whose catch-all answers anything else under the FHIR base.
  (router) => fhirExportRoutes(router, deps.fhirExport),
  (router) => fhirRoutes(router, deps.fhir),
];
