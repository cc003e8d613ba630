/**
 * The rule endpoints' paths (services receive the full /v2 path from the gateway) and how a
 * request names the rule's owner.
 */
import type { Caller } from '@wellstream/http';
import type { RuleOwnerRef } from './rule-owner';

export const RULES_PATH = '/v2/organizations/:orgId/users/:uid/rules';
export const RULE_PATH = `${RULES_PATH}/:ruleId`;

export function ownerRef(caller: Caller, params: Record<string, string>): RuleOwnerRef {
  // The gateway authorized the organization in the path for this customer.
  return { customerId: caller.customerId, organizationId: params.orgId, uid: params.uid };
}
