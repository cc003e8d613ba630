/**
 * GET /v2/organizations/:orgId/users/:uid/rules → 200 {"data":[rules]}.
 */
import type { IRouter } from 'express';
import { organizationCaller, route } from '@wellstream/http';
import type { RuleUseCaseDeps } from '../rule-deps';
import { ownerRef, RULES_PATH } from '../rule-paths';
import { listRules } from './list-rules.usecase';

export function listRulesRoute(router: IRouter, deps: RuleUseCaseDeps): void {
  router.get(
    RULES_PATH,
    route(async (req, res) => {
      res.status(200).json(await listRules(deps, ownerRef(organizationCaller(req), req.params.uid)));
    }),
  );
}
