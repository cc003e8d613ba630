/**
 * The notifications service's express app: target configuration, batch status and redelivery on
 * the shared app factory.
 */
import type express from 'express';
import { createServiceApp, organizationOwnerCheck, OrganizationOwners, HealthOption, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { AddressPolicy } from './targets/address-policy';
import type { TargetRepository } from './targets/target.repository';
import type { BatchRepository } from './batches/batch.repository';
import { configureTargetRoute } from './targets/configure-target/configure-target.route';
import { getTargetRoute } from './targets/get-target/get-target.route';
import { deleteTargetRoute } from './targets/delete-target/delete-target.route';
import { listBatchesRoute } from './batches/list-batches/list-batches.route';
import { getBatchRoute } from './batches/get-batch/get-batch.route';
import { redeliverBatchRoute } from './batches/redeliver-batch/redeliver-batch.route';
import { notificationsOpenApi } from './notifications.openapi';

export interface NotificationsAppDeps {
  logger: Logger;
  health: HealthOption;
  metrics?: ServiceMetrics;
  /** Verify the gateway's caller assertions (WELLSTREAM_GATEWAY_KEYS). */
  gatewayKeys: readonly string[];
  /** Who owns each organization (this service's own projection), checked on every organization path. */
  organizationOwners: OrganizationOwners;
  targets: TargetRepository;
  batches: BatchRepository;
  policy: AddressPolicy;
  dropPendingItems(organizationId: string): Promise<number>;
  wake(): void;
}

export function createNotificationsApp(deps: NotificationsAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    metrics: deps.metrics,
    gatewayKeys: deps.gatewayKeys,
    routes: (app) => {
      app.use('/v2/organizations/:orgId', organizationOwnerCheck(deps.organizationOwners));
      app.get('/openapi.json', (_req, res) => {
        res.json(notificationsOpenApi);
      });
      configureTargetRoute(app, deps);
      getTargetRoute(app, deps);
      deleteTargetRoute(app, deps);
      listBatchesRoute(app, deps);
      getBatchRoute(app, deps);
      redeliverBatchRoute(app, deps);
    },
  });
}
