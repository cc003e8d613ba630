/**
 * Lists a user's rules, oldest first.
 */
import { ruleView, RuleView } from '../rule';
import { resolveRuleOwner, RuleOwnerRef } from '../rule-owner';
import type { RuleUseCaseDeps } from '../rule-deps';

export async function listRules(deps: RuleUseCaseDeps, ref: RuleOwnerRef): Promise<{ data: RuleView[] }> {
  const user = await resolveRuleOwner(deps, ref);
  return { data: (await deps.rules.listForUser(user._id)).map(ruleView) };
}
