/**
 * PUT /v2/organizations/:orgId/users/:uid → the updated user.
 */
import type { IRouter } from 'express';
import { organizationCaller, route, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { USER_PATH } from '../user-paths';
import { userView } from '../user.views';
import { updateUserSchema } from './update-user.schema';
import { updateUserLocation } from './update-user.usecase';

export function updateUserRoute(router: IRouter, deps: UsersDeps): void {
  router.put(
    USER_PATH,
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      const body = validate(updateUserSchema, req.body, { kind: 'bad_request' });
      const user = await updateUserLocation(deps, organizationId, req.params.uid, body);
      res.json(userView(user, deps.marketplaceUrl));
    }),
  );
}
