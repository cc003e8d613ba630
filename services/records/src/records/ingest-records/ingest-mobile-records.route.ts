/**
 * POST /v2/mobile/records?token=<the user's mobile token> {"records":[...]} → 200 {"data":[stored records]}.
 * Public behind the gateway: the mobile token is the credential, checked here.
 */
import type { IRouter } from 'express';
import { answerIsAboutUser, endpointRoute } from '@wellstream/http';
import { recordsEndpoint } from '../../records-endpoints';
import { invalidMobileToken } from '../record.errors';
import type { MobileUserFinder } from '../../users/mobile-user-finder';
import { ingestRecords, IngestDeps } from './ingest-records.usecase';
import { phoneSourceGate } from './phone-source-gate';
import type { SourceConnectionProjection } from '../../availability/source-connection-projection';

export function ingestMobileRecordsRoute(router: IRouter, deps: IngestDeps & { mobileUsers: MobileUserFinder; connections: Pick<SourceConnectionProjection, 'byIds'> }): void {
  endpointRoute(router, recordsEndpoint('ingestMobileRecords'), [], async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const user = token ? await deps.mobileUsers.find(token) : null;
    if (!user) throw invalidMobileToken();
    const userReadAt = deps.clock.now().getTime();
    answerIsAboutUser(res, user._id);
    const data = await ingestRecords(deps, user, req.body, { gate: phoneSourceGate(deps.connections, user._id), userReadAt });
    res.json({ data });
  });
}
