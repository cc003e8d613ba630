/**
 * GET /v2/organizations/:org_id/users/:uid/availability → what data each source holds and delivers.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import { recordsEndpoint } from '../records-endpoints';
import { AvailabilityDeps, getAvailability } from './get-availability.usecase';

export function availabilityRoute(router: IRouter, deps: AvailabilityDeps): void {
  endpointRoute(router, recordsEndpoint('getAvailability'), [], async (req, res) => {
    const caller = organizationCaller(req);
    res.json(await getAvailability(deps, { customerId: caller.customerId, organizationId: caller.organizationId, uid: req.params.uid }));
  });
}
