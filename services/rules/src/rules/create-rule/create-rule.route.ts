/**
 * POST /v2/organizations/:org_id/users/:uid/rules → 201 rule with id.
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, ruleEndpoint } from '../rule-paths';
import { createRule } from './create-rule.usecase';

export function createRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  endpointRoute(router, ruleEndpoint('createRule'), [], async (req, res) => {
    res.status(201).json(await createRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.body));
  });
}
