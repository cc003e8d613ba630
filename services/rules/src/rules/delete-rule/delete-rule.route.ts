/**
 * DELETE /v2/organizations/:org_id/users/:uid/rules/:rule_id → 200 the deleted rule.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, ruleEndpoint } from '../rule-paths';
import { deleteRule } from './delete-rule.usecase';

export function deleteRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  endpointRoute(router, ruleEndpoint('deleteRule'), [], async (req, res) => {
    res.status(200).json(await deleteRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.params.rule_id));
  });
}
