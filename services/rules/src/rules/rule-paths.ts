/**
 * The rule endpoints (declared in @wellstream/endpoints, which gives each its method and path) and
 * how a request names the rule's owner.
 */
import { findEndpoint, rulesEndpoints } from '@wellstream/endpoints';
import type { RuleOwnerRef } from './rule-owner';

export const ruleEndpoint = (operationId: string) => findEndpoint(rulesEndpoints, operationId);

/** The caller and organization as the organization guard checked them, and the user in the path. */
export function ownerRef(caller: { customerId: string; organizationId: string }, uid: string): RuleOwnerRef {
  return { customerId: caller.customerId, organizationId: caller.organizationId, uid };
}
