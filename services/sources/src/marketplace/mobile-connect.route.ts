/**
 * POST /v2/mobile/sources/:type/connect?token=<mobile token>: the phone app (the mobile SDK's
 * `connect()`) connects a phone store, the same connection a first upload makes, and answers once
 * records and users have it, so the next upload is accepted. The mobile token is the credential;
 * it is looked up at the log's end, so a token rotated a moment ago is already refused.
 */
import type { IRouter } from 'express';
import { sourceDefinition } from '@wellstream/catalog';
import { endpointRoute } from '@wellstream/http';
import { unauthenticated } from '@wellstream/errors';
import { sourcesEndpoint } from '../sources-endpoints';
import { connectAtOnce, ConnectAtOnceDeps } from '../connections/connect-at-once.usecase';
import { unknownSource } from '../connections/source.errors';
import type { ProjectedUser } from '../users/user-projection';

export interface MobileConnectDeps {
  /** The user a mobile token belongs to, as the users service last published it. */
  mobileUserOf(token: string): Promise<ProjectedUser | null>;
  atOnce: ConnectAtOnceDeps;
}

const invalidMobileToken = () => unauthenticated('INVALID_MOBILE_TOKEN', 'Invalid or missing mobile token.');

export function mobileConnectRoute(router: IRouter, deps: MobileConnectDeps): void {
  endpointRoute(router, sourcesEndpoint('connectMobileSource'), [], async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const user = token ? await deps.mobileUserOf(token) : null;
    if (!user || user.status === 'deleted') throw invalidMobileToken();
    const type = req.params.type;
    if (sourceDefinition(type)?.kind !== 'mobile') throw unknownSource(type);
    await connectAtOnce(deps.atOnce, user, type);
    res.json({ source: { type }, connected: true });
  });
}
