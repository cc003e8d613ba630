/**
 * Whether this service knows an organization, for the operator's reads: the organization-owner
 * projection that followOrganizationOwners feeds (same collection, same consumer group), read so
 * that an organization created just before waits for the projection to have it.
 */
import { organizationEventsTopic } from '@wellstream/contracts';
import { ORGANIZATION_CATCH_UP_MS, OrganizationOwnerRepository, ServiceContext } from '@wellstream/runtime';

export async function organizationLookup(ctx: ServiceContext): Promise<{ find(organizationId: string): Promise<unknown> }> {
  const projection = await OrganizationOwnerRepository.open(ctx.store);
  const fresh = ctx.readYourWrites(organizationEventsTopic, `${ctx.name}.organization-owners`, ORGANIZATION_CATCH_UP_MS);
  return { find: (id) => fresh.find(() => projection.find(id)) };
}
