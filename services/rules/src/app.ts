/**
 * The rules service's routes. The skeleton (libs/runtime) mounts them behind the organization guard.
 */
import type { RouteRegistration } from '@wellstream/runtime';
import { createRuleRoute } from './rules/create-rule/create-rule.route';
import { deleteRuleRoute } from './rules/delete-rule/delete-rule.route';
import { getRuleRoute } from './rules/get-rule/get-rule.route';
import { listRulesRoute } from './rules/list-rules/list-rules.route';
import type { RuleUseCaseDeps } from './rules/rule-deps';
import { updateRuleRoute } from './rules/update-rule/update-rule.route';

export const rulesRoutes = (deps: RuleUseCaseDeps): RouteRegistration[] =>
  [listRulesRoute, createRuleRoute, getRuleRoute, updateRuleRoute, deleteRuleRoute].map((register) => (router) => register(router, deps));
