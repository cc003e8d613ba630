/**
 * The express app of a service (not the gateway): the shared app factory with the service's health
 * (its store and event log), metrics, the gateway keys it verifies callers by, its OpenAPI part at
 * /openapi.json, the caller-organization guard on every organization path, then its routes.
 */
import type { IRouter } from 'express';
import { parseGatewayKeys, ServiceSettings } from '@wellstream/config';
import { createServiceApp, DeclaredRoute, expressPath, HealthChecks, IdempotentAnswers, idempotentWrites, IdempotentWritesOptions, organizationOwnerCheck, OrganizationOwners } from '@wellstream/http';
import { organizationEventsTopic } from '@wellstream/contracts';
import type { ServiceContext } from './start-service';

/** How long an organization path waits for a projection that is behind the organizations log. */
export const ORGANIZATION_CATCH_UP_MS = 5_000;

/** How every route module registers itself: `xRoute(router, deps)`, bound here to its deps. */
export type RouteRegistration = (router: IRouter) => void;

export interface ServiceAppSpec {
  openapi: unknown;
  /**
   * The service's own projection of who owns each organization, and the consumer group that feeds
   * it from the `organizations` topic; checked on `/v2/organizations/:orgId/…`. An organization the
   * projection does not know waits only while that group is behind the log (read-your-writes).
   */
  organizationOwners?: { projection: OrganizationOwners; groupId: string };
  routes: readonly RouteRegistration[];
  /** Health checks beyond the store and the event log. */
  health?: HealthChecks;
  /** POSTs that honour `Idempotency-Key` (@wellstream/http idempotent-writes), answered from `answers`. */
  idempotent?: { answers: IdempotentAnswers; routes: readonly (IdempotentWritesOptions & { route: DeclaredRoute })[] };
}

export function createStandardServiceApp(ctx: ServiceContext<ServiceSettings>, spec: ServiceAppSpec) {
  let owners: OrganizationOwners | undefined;
  if (spec.organizationOwners) {
    const { projection, groupId } = spec.organizationOwners;
    const fresh = ctx.readYourWrites(organizationEventsTopic, groupId, ORGANIZATION_CATCH_UP_MS);
    owners = { customerOf: (id) => fresh.find(() => projection.customerOf(id)) };
  }
  return createServiceApp({
    logger: ctx.logger,
    health: { store: () => ctx.store.healthy(), event_log: () => ctx.eventLog.healthy(), ...spec.health },
    metrics: ctx.metrics,
    gatewayKeys: parseGatewayKeys(ctx.config.WELLSTREAM_GATEWAY_KEYS),
    routes: (app) => {
      if (owners) app.use('/v2/organizations/:orgId', organizationOwnerCheck(owners));
      app.get('/openapi.json', (_req, res) => {
        res.json(spec.openapi);
      });
      // After the organization check (a stranger's organization is never answered from the store), before the route.
      for (const { route, ...options } of spec.idempotent?.routes ?? []) app.post(expressPath(route), idempotentWrites(spec.idempotent!.answers, options));
      for (const register of spec.routes) register(app);
    },
  });
}
