/**
 * PUT /v2/organizations/:org_id/users/:uid/rules/:rule_id → 200 rule.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, ruleEndpoint } from '../rule-paths';
import { updateRule } from './update-rule.usecase';

export function updateRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  endpointRoute(router, ruleEndpoint('updateRule'), [], async (req, res) => {
    res.status(200).json(await updateRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.params.rule_id, req.body));
  });
}
