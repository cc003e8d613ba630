/**
 * POST /v2/organizations/:org_id/users/:uid/mobile_token → {"mobile":{"token"}}.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { UsersDeps } from '../users.deps';
import { usersEndpoint } from '../../users-endpoints';
import { rotateMobileToken } from './rotate-mobile-token.usecase';

export function rotateMobileTokenRoute(router: IRouter, deps: UsersDeps): void {
  endpointRoute(router, usersEndpoint('rotateMobileToken'), [], async (req, res) => {
    const { organizationId } = organizationCaller(req);
    const user = await rotateMobileToken(deps, organizationId, req.params.uid);
    res.json({ mobile: { token: user.mobile_token } });
  });
}
