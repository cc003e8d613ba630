/**
 * GET /v2/admin/organizations/:org_id/sources (the operator token only): connected sources per type.
 */
import type { IRouter } from 'express';
import { endpointRoute, isOperatorCall } from '@wellstream/http';
import { adminOnly } from '../../users/user.errors';
import type { UsersDeps } from '../../users/users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { countOrganizationSources } from './count-organization-sources.usecase';

export function organizationSourcesRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('adminCountOrganizationSources'), [], async (req, res) => {
    if (!isOperatorCall(req)) throw adminOnly();
    res.json(await countOrganizationSources(deps, req.params.org_id));
  });
}
