/**
 * GET /v2/organizations/:orgId/users/:uid/rules/:ruleId → 200 rule.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULE_PATH } from '../rule-paths';
import { getRule } from './get-rule.usecase';

export function getRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  router.get(
    RULE_PATH,
    route(async (req, res) => {
      res.status(200).json(await getRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.params.ruleId));
    }),
  );
}
