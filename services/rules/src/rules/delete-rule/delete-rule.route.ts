/**
 * DELETE /v2/organizations/:orgId/users/:uid/rules/:ruleId → 200 the deleted rule.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULE_PATH } from '../rule-paths';
import { deleteRule } from './delete-rule.usecase';

export function deleteRuleRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  router.delete(
    RULE_PATH,
    route(async (req, res) => {
      res.status(200).json(await deleteRule(deps, ownerRef(organizationCaller(req), req.params.uid), req.params.ruleId));
    }),
  );
}
