/**
 * Reads one rule of a user.
 */
import { ruleView, RuleView } from '../rule';
import { ruleNotFound } from '../rule.errors';
import { resolveRuleOwner, RuleOwnerRef } from '../rule-owner';
import type { RuleUseCaseDeps } from '../rule-deps';

export async function getRule(deps: RuleUseCaseDeps, ref: RuleOwnerRef, ruleId: string): Promise<RuleView> {
  const user = await resolveRuleOwner(deps, ref);
  const rule = await deps.rules.findForUser(user._id, ruleId);
  if (!rule) throw ruleNotFound(ruleId);
  return ruleView(rule);
}
