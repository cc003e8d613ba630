/**
 * GET /v2/organizations/:orgId/users/:uid/rules/:ruleId → 200 rule.
 */
import type { IRouter } from 'express';
import { callerOf, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULE_PATH } from '../rule-paths';
import { getRule } from './get-rule.usecase';

export function getRuleRoute(r: IRouter, deps: RuleUseCaseDeps): void {
  r.get(
    RULE_PATH,
    route(async (req, res) => {
      res.status(200).json(await getRule(deps, ownerRef(callerOf(req), req.params), req.params.ruleId));
    }),
  );
}
