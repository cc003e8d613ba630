/**
 * GET /v2/organizations/:orgId/users → {data, meta}.
 */
import type { IRouter } from 'express';
import { organizationCaller, route, validate } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { USERS_PATH } from '../user-paths';
import { userListItemView } from '../user.views';
import { listUsersSchema } from './list-users.schema';
import { listUsers } from './list-users.usecase';

export function listUsersRoute(router: IRouter, deps: UsersDeps): void {
  router.get(
    USERS_PATH,
    route(async (req, res) => {
      const { organizationId } = organizationCaller(req);
      const query = validate(listUsersSchema, req.query, { kind: 'bad_request', code: 'INVALID_PAGING' });
      const { users, meta } = await listUsers(deps, organizationId, query);
      res.json({ data: users.map((u) => userListItemView(u, deps.marketplaceUrl)), meta });
    }),
  );
}
