/**
 * POST /v2/organizations/:org_id/users → 201 with the created user.
 */
import type { IRouter } from 'express';
import { answerIsAboutUser, endpointRoute, organizationCaller, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { userView } from '../user.views';
import { createUserSchema } from './create-user.schema';
import { createUser } from './create-user.usecase';

export function createUserRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('createUser'), [], async (req, res) => {
    const caller = organizationCaller(req);
    const body = validate(createUserSchema, req.body, { kind: 'bad_request' });
    const user = await createUser(deps, { ...body, ...caller });
    answerIsAboutUser(res, user.id);
    res.status(201).json(userView(user, deps.marketplaceUrl));
  });
}
