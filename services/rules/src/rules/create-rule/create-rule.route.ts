/**
 * POST /v2/organizations/:orgId/users/:uid/rules → 201 rule with id.
 */
import type { IRouter } from 'express';
import { callerOf, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULES_PATH } from '../rule-paths';
import { createRule } from './create-rule.usecase';

export function createRuleRoute(r: IRouter, deps: RuleUseCaseDeps): void {
  r.post(
    RULES_PATH,
    route(async (req, res) => {
      res.status(201).json(await createRule(deps, ownerRef(callerOf(req), req.params), req.body));
    }),
  );
}
