/**
 * The `rule` event a triggered rule raises, on the `events` topic (streams and replay deliver its
 * payload; REST record endpoints never see it). The payload is the contract's RulePayload.
 */
import { randomBytes } from 'node:crypto';
import type { RuleEvent } from '@wellstream/contracts';
import { RuleDoc, ruleView } from '../rules/rule';

export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

export function buildRuleEvent(rule: RuleDoc, count: number, triggeredAt: Date, id = newEventId()): RuleEvent {
  const at = triggeredAt.toISOString();
  // The event carries the rule as the API shows it, without its own timestamps.
  const { created_at: _created, updated_at: _updated, ...ruleFields } = ruleView(rule);
  return {
    id,
    event_type: 'rule',
    key: id,
    customer_id: rule.customer_id,
    organization_id: rule.organization_id,
    user_id: rule.user_id,
    // Lets a stream's start_date filter apply to rule events by when they triggered.
    start_time: at,
    created_at: at,
    payload: {
      user: { uid: rule.uid, user_id: rule.user_id, organization_id: rule.organization_id },
      rule: ruleFields,
      data: [{ type: rule.metric.type, data: { count } }],
      created_at: at,
    },
  };
}
