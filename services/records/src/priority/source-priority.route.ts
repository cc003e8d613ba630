/**
 * GET/PUT /v2/organizations/:org_id/source_priority (the customer, behind the organization guard)
 * and GET/PUT /v2/admin/organizations/:org_id/source_priority (the operator token only).
 */
import type { IRouter } from 'express';
import { unauthenticated } from '@wellstream/errors';
import { endpointRoute, isOperatorCall, organizationCaller } from '@wellstream/http';
import { recordsEndpoint } from '../records-endpoints';
import { getSourcePriority, putSourcePriority, SourcePriorityDeps } from './source-priority.usecase';

const adminOnly = () => unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');

export function sourcePriorityRoutes(router: IRouter, deps: SourcePriorityDeps): void {
  endpointRoute(router, recordsEndpoint('getSourcePriority'), [], async (req, res) => void res.json(await getSourcePriority(deps, organizationCaller(req).organizationId)));
  endpointRoute(router, recordsEndpoint('putSourcePriority'), [], async (req, res) => void res.json(await putSourcePriority(deps, organizationCaller(req).organizationId, req.body)));
  endpointRoute(router, recordsEndpoint('adminGetSourcePriority'), [], async (req, res) => {
    if (!isOperatorCall(req)) throw adminOnly();
    res.json(await getSourcePriority(deps, req.params.org_id, true));
  });
  endpointRoute(router, recordsEndpoint('adminPutSourcePriority'), [], async (req, res) => {
    if (!isOperatorCall(req)) throw adminOnly();
    res.json(await putSourcePriority(deps, req.params.org_id, req.body, true));
  });
}
