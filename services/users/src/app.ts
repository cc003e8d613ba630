/**
 * The users service's routes: provisioning (customer API), operator suspension and the public
 * marketplace. The skeleton (libs/runtime) mounts them behind the organization guard.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import type { UsersDeps } from './users/users.deps';
import { createUserRoute } from './users/create-user/create-user.route';
import { getUserRoute } from './users/get-user/get-user.route';
import { updateUserRoute } from './users/update-user/update-user.route';
import { deleteUserRoute } from './users/delete-user/delete-user.route';
import { listUsersRoute } from './users/list-users/list-users.route';
import { refreshMarketplaceRoute } from './users/refresh-marketplace/refresh-marketplace.route';
import { rotateMobileTokenRoute } from './users/rotate-mobile-token/rotate-mobile-token.route';
import { suspendUserRoute } from './users/suspend-user/suspend-user.route';
import { marketplaceRoutes } from './marketplace/marketplace.routes';
import { organizationSourcesRoute } from './sources/organization-sources/organization-sources.route';

export const usersRoutes = (deps: UsersDeps): RouteRegistration[] =>
  [createUserRoute, listUsersRoute, getUserRoute, updateUserRoute, deleteUserRoute, refreshMarketplaceRoute, rotateMobileTokenRoute, suspendUserRoute, marketplaceRoutes, organizationSourcesRoute].map(
    (register) => (router) => register(router, deps),
  );
