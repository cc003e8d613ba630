/**
 * POST /v2/organizations/:orgId/users/:uid/rules → 201 rule with id.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULES_PATH } from '../rule-paths';
import { createRule } from './create-rule.usecase';

export function createRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  router.post(
    RULES_PATH,
    route(async (req, res) => {
      res.status(201).json(await createRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.body));
    }),
  );
}
