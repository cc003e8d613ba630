/**
 * The precondition of every rule endpoint: the feature is on for the organization, and the uid
 * names a user of that organization and of the calling customer.
 */
import type { RulesFeature } from '../organizations/rules-feature';
import type { UserDirectory } from '../users/user-directory';
import type { KnownUser } from '../users/user-projection.repository';
import { rulesFeatureDisabled, userNotFound } from './rule.errors';

export interface RuleOwnerDeps {
  feature: RulesFeature;
  users: UserDirectory;
}

export interface RuleOwnerRef {
  customerId: string;
  organizationId: string;
  uid: string;
}

export async function resolveRuleOwner(deps: RuleOwnerDeps, ref: RuleOwnerRef): Promise<KnownUser> {
  if (!(await deps.feature.enabledFor(ref.organizationId))) throw rulesFeatureDisabled();
  const user = await deps.users.find(ref.organizationId, ref.uid);
  // The gateway checked that the customer owns the organization; the customer check guards the
  // projection against a user snapshot carrying another customer's id.
  if (!user || user.customer_id !== ref.customerId) throw userNotFound(ref.uid);
  return user;
}
