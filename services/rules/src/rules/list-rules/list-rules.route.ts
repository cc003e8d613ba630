/**
 * GET /v2/organizations/:org_id/users/:uid/rules → 200 {"data":[rules]}.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, ruleEndpoint } from '../rule-paths';
import { listRules } from './list-rules.usecase';

export function listRulesRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  endpointRoute(router, ruleEndpoint('listRules'), [], async (req, res) => {
    res.status(200).json(await listRules(deps, ownerRef(organizationCaller(req), req.params.uid)));
  });
}
