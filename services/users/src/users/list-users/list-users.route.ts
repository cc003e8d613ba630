/**
 * GET /v2/organizations/:orgId/users → {data, meta}.
 */
import type { RequestHandler } from 'express';
import { route, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { organizationCaller } from '../organization-caller';
import { userListItemView } from '../user.views';
import { listUsersSchema } from './list-users.schema';
import { listUsers } from './list-users.usecase';

export const listUsersRoute = (deps: UsersDeps): RequestHandler =>
  route(async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const query = validate(listUsersSchema, req.query, { kind: 'bad_request', code: 'INVALID_PAGING' });
    const { users, meta } = await listUsers(deps, organizationId, query);
    res.json({ data: users.map((u) => userListItemView(u, deps.marketplaceUrl)), meta });
  });
