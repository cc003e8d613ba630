/**
 * Replaces a rule's fields. A change of criteria (anything but the message) restarts its
 * observation: it watches a full window of the new criteria before it can trigger, and any
 * reported episode is forgotten. A message-only edit keeps the observation and state.
 */
import { armedAt, RuleDoc, ruleView, RuleView, sameCriteria } from '../rule';
import { ruleNotFound } from '../rule.errors';
import { resolveRuleOwner, RuleOwnerRef } from '../rule-owner';
import { validateRuleBody } from '../rule.schema';
import { forgetUnwatchedMetric, RuleUseCaseDeps } from '../rule-deps';

export async function updateRule(deps: RuleUseCaseDeps, ref: RuleOwnerRef, ruleId: string, body: unknown): Promise<RuleView> {
  const user = await resolveRuleOwner(deps, ref);
  const current = await deps.rules.findForUser(user._id, ruleId);
  if (!current) throw ruleNotFound(ruleId);
  const { input, windowMs } = validateRuleBody(body);
  const now = deps.clock.now();
  const at = now.toISOString();
  const set: Partial<RuleDoc> = { ...input, updated_at: at };
  if (!sameCriteria(current, input)) {
    Object.assign(set, {
      window_ms: windowMs,
      watching_since: at,
      armed_at: armedAt(now, windowMs),
      revision: current.revision + 1,
      triggered: false,
      triggered_at: null,
    });
  }
  const updated = await deps.rules.update(user._id, ruleId, set);
  if (!updated) throw ruleNotFound(ruleId);
  if (current.metric.type !== input.metric.type) await forgetUnwatchedMetric(deps, user._id, current.metric.type);
  return ruleView(updated);
}
