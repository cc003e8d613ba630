/**
 * The users service's express app: provisioning (customer API), operator suspension, the public
 * marketplace and this service's OpenAPI part, on the shared app factory.
 */
import type express from 'express';
import { createServiceApp, organizationOwnerCheck, OrganizationOwners, HealthOption, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { UsersDeps } from './users/users.deps';
import { createUserRoute } from './users/create-user/create-user.route';
import { getUserRoute } from './users/get-user/get-user.route';
import { updateUserRoute } from './users/update-user/update-user.route';
import { deleteUserRoute } from './users/delete-user/delete-user.route';
import { listUsersRoute } from './users/list-users/list-users.route';
import { refreshMarketplaceRoute } from './users/refresh-marketplace/refresh-marketplace.route';
import { suspendUserRoute } from './users/suspend-user/suspend-user.route';
import { registerMarketplaceRoutes } from './marketplace/marketplace.routes';
import { usersOpenApi } from './openapi/users.openapi';

export interface UsersAppDeps extends UsersDeps {
  logger: Logger;
  health: HealthOption;
  metrics?: ServiceMetrics;
  /** Verify the gateway's caller assertions (WELLSTREAM_GATEWAY_KEYS). */
  gatewayKeys: readonly string[];
  /** Who owns each organization (this service's own projection), checked on every organization path. */
  organizationOwners: OrganizationOwners;
}

export function createUsersApp(deps: UsersAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    metrics: deps.metrics,
    gatewayKeys: deps.gatewayKeys,
    routes: (app) => {
      app.use('/v2/organizations/:orgId', organizationOwnerCheck(deps.organizationOwners));
      app.set('strict routing', false);
      const users = '/v2/organizations/:orgId/users';
      app.post(users, createUserRoute(deps));
      app.get(users, listUsersRoute(deps));
      app.get(`${users}/:uid`, getUserRoute(deps));
      app.put(`${users}/:uid`, updateUserRoute(deps));
      app.delete(`${users}/:uid`, deleteUserRoute(deps));
      app.post(`${users}/:uid/marketplace`, refreshMarketplaceRoute(deps));
      const admin = '/v2/admin/organizations/:orgId/users/:uid';
      app.post(`${admin}/suspend`, suspendUserRoute(deps, true));
      app.post(`${admin}/unsuspend`, suspendUserRoute(deps, false));
      registerMarketplaceRoutes(app, deps);
      app.get('/openapi.json', (_req, res) => {
        res.json(usersOpenApi);
      });
    },
  });
}
