/**
 * PUT /v2/organizations/:orgId/users/:uid/rules/:ruleId → 200 rule.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULE_PATH } from '../rule-paths';
import { updateRule } from './update-rule.usecase';

export function updateRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  router.put(
    RULE_PATH,
    route(async (req, res) => {
      res.status(200).json(await updateRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.params.ruleId, req.body));
    }),
  );
}
