/**
 * PUT /v2/organizations/:org_id/users/:uid → the updated user.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { userView } from '../user.views';
import { updateUserSchema } from './update-user.schema';
import { updateUserLocation } from './update-user.usecase';

export function updateUserRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('updateUser'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const body = validate(updateUserSchema, req.body, { kind: 'bad_request' });
    const user = await updateUserLocation(deps, organizationId, req.params.uid, body);
    res.json(userView(user, deps.marketplaceUrl));
  });
}
