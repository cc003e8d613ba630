/**
 * GET /v2/organizations/:org_id/users → {data, meta}.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { userListItemView } from '../user.views';
import { listUsersSchema } from './list-users.schema';
import { listUsers } from './list-users.usecase';

export function listUsersRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('listUsers'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const query = validate(listUsersSchema, req.query, { kind: 'bad_request', code: 'INVALID_PAGING' });
    const { users, meta } = await listUsers(deps, organizationId, query);
    res.json({ data: users.map((u) => userListItemView(u, deps.marketplaceUrl)), meta });
  });
}
