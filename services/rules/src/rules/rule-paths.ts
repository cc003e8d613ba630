/**
 * The rule endpoints' paths (services receive the full /v2 path from the gateway) and how a
 * request names the rule's owner.
 */
import type { RuleOwnerRef } from './rule-owner';

export const RULES_PATH = '/v2/organizations/:orgId/users/:uid/rules';
export const RULE_PATH = `${RULES_PATH}/:ruleId`;

/** The caller and organization as the organization guard checked them, and the user in the path. */
export function ownerRef(caller: { customerId: string; organizationId: string }, uid: string): RuleOwnerRef {
  return { customerId: caller.customerId, organizationId: caller.organizationId, uid };
}
