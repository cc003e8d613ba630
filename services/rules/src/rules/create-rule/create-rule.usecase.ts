/**
 * Creates a rule for a user. The rule starts watching now and can first trigger one full window
 * later (see README: a new rule does not trigger merely because there is no history yet).
 */
import { armedAt, RuleDoc, ruleView, RuleView } from '../rule';
import { userSuspended } from '../rule.errors';
import { resolveRuleOwner, RuleOwnerRef } from '../rule-owner';
import { validateRuleBody } from '../rule.schema';
import { newRuleId, RuleUseCaseDeps } from '../rule-deps';

export async function createRule(deps: RuleUseCaseDeps, ref: RuleOwnerRef, body: unknown): Promise<RuleView> {
  const user = await resolveRuleOwner(deps, ref);
  const { input, windowMs } = validateRuleBody(body);
  if (user.status === 'suspended') throw userSuspended(ref.uid);
  const now = deps.clock.now();
  const at = now.toISOString();
  const rule: RuleDoc = {
    _id: newRuleId(),
    ...input,
    user_id: user._id,
    uid: user.uid,
    organization_id: user.organization_id,
    customer_id: user.customer_id,
    window_ms: windowMs,
    created_at: at,
    updated_at: at,
    watching_since: at,
    armed_at: armedAt(now, windowMs),
    revision: 1,
    triggered: false,
    triggered_at: null,
    last_event_id: null,
  };
  await deps.rules.insert(rule);
  return ruleView(rule);
}
