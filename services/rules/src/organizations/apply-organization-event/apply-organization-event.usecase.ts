/**
 * Applies an `organizations` topic snapshot to the projection (the per-organization rules switch).
 */
import type { OrganizationEvent } from '@wellstream/contracts';
import type { OrganizationProjectionRepository } from '../organization-projection.repository';

export async function applyOrganizationEvent(deps: { organizations: OrganizationProjectionRepository }, event: OrganizationEvent): Promise<void> {
  await deps.organizations.apply(event.organization);
}
