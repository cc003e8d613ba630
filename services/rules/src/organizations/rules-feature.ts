/**
 * Whether the rules feature is on for an organization: the operator's per-organization setting when
 * set, else the global WELLSTREAM_RULES_ENABLED. An organization the projection has not seen yet
 * follows the global flag.
 */
import type { OrganizationProjectionRepository } from './organization-projection.repository';

export interface RulesFeature {
  enabledFor(organizationId: string): Promise<boolean>;
}

export function rulesFeature(organizations: OrganizationProjectionRepository, globallyEnabled: boolean): RulesFeature {
  return {
    async enabledFor(organizationId) {
      const org = await organizations.find(organizationId);
      return org?.rules_enabled ?? globallyEnabled;
    },
  };
}
