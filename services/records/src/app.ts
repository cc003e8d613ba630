/**
 * The records service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp, organizationOwnerCheck, OrganizationOwners, HealthOption, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import { recordsOpenApi } from './openapi/records.openapi';
import { ingestMobileRecordsRoute } from './records/ingest-records/ingest-mobile-records.route';
import type { IngestDeps } from './records/ingest-records/ingest-records.usecase';
import { listRecordsRoute } from './records/list-records/list-records.route';
import type { ListRecordsDeps } from './records/list-records/list-records.usecase';
import type { MobileUserFinder } from './users/mobile-user-finder';

export interface RecordsAppDeps {
  logger: Logger;
  health: HealthOption;
  metrics?: ServiceMetrics;
  /** Verify the gateway's caller assertions (WELLSTREAM_GATEWAY_KEYS). */
  gatewayKeys: readonly string[];
  /** Who owns each organization (this service's own projection), checked on every organization path. */
  organizationOwners: OrganizationOwners;
  ingest: IngestDeps;
  mobileUsers: MobileUserFinder;
  list: ListRecordsDeps;
}

export function createRecordsApp(deps: RecordsAppDeps): express.Express {
  const openapi = recordsOpenApi();
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    metrics: deps.metrics,
    gatewayKeys: deps.gatewayKeys,
    routes: (app) => {
      app.use('/v2/organizations/:orgId', organizationOwnerCheck(deps.organizationOwners));
      app.get('/openapi.json', (_req, res) => {
        res.json(openapi);
      });
      ingestMobileRecordsRoute(app, { ...deps.ingest, mobileUsers: deps.mobileUsers });
      listRecordsRoute(app, deps.list);
    },
  });
}
