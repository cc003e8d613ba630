/**
 * The express app of a service (not the gateway): the shared app factory with the service's health
 * (its store and event log), metrics, the gateway keys it verifies callers by, its OpenAPI part at
 * /openapi.json, the caller-organization guard on every organization path, then its routes.
 */
import type { IRouter } from 'express';
import { parseGatewayKeys, ServiceSettings } from '@wellstream/config';
import { createServiceApp, HealthChecks, organizationOwnerCheck, OrganizationOwners } from '@wellstream/http';
import type { ServiceContext } from './start-service';

/** How every route module registers itself: `xRoute(router, deps)`, bound here to its deps. */
export type RouteRegistration = (router: IRouter) => void;

export interface ServiceAppSpec {
  openapi: unknown;
  /** The service's own projection of who owns each organization; checked on `/v2/organizations/:orgId/…`. */
  organizationOwners?: OrganizationOwners;
  routes: readonly RouteRegistration[];
  /** Health checks beyond the store and the event log. */
  health?: HealthChecks;
}

export function createStandardServiceApp(ctx: ServiceContext<ServiceSettings>, spec: ServiceAppSpec) {
  return createServiceApp({
    logger: ctx.logger,
    health: { store: () => ctx.store.healthy(), event_log: () => ctx.eventLog.healthy(), ...spec.health },
    metrics: ctx.metrics,
    gatewayKeys: parseGatewayKeys(ctx.config.WELLSTREAM_GATEWAY_KEYS),
    routes: (app) => {
      if (spec.organizationOwners) app.use('/v2/organizations/:orgId', organizationOwnerCheck(spec.organizationOwners));
      app.get('/openapi.json', (_req, res) => {
        res.json(spec.openapi);
      });
      for (const register of spec.routes) register(app);
    },
  });
}
