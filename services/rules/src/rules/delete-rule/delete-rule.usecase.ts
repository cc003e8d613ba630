/**
 * Deletes a rule (and with it its evaluation state); answers the deleted rule with `deleted_at`.
 */
import { ruleView, RuleView } from '../rule';
import { ruleNotFound } from '../rule.errors';
import { resolveRuleOwner, RuleOwnerRef } from '../rule-owner';
import { forgetUnwatchedMetric, RuleUseCaseDeps } from '../rule-deps';

export async function deleteRule(deps: RuleUseCaseDeps, ref: RuleOwnerRef, ruleId: string): Promise<RuleView> {
  const user = await resolveRuleOwner(deps, ref);
  const rule = await deps.rules.findForUser(user._id, ruleId);
  if (!rule || !(await deps.rules.deleteOne(user._id, ruleId))) throw ruleNotFound(ruleId);
  await forgetUnwatchedMetric(deps, user._id, rule.metric.type);
  return { ...ruleView(rule), deleted_at: deps.clock.now().toISOString() };
}
