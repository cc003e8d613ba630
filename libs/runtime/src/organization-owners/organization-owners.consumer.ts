/**
 * Feeds a service's organization-owner projection from the `organizations` topic, from the beginning
 * (the topic is compacted, so a fresh database is rebuilt from it). Each service follows in a group
 * of its own (`<service>.organization-owners`): replicas of one service share its database.
 */
import { organizationEventsTopic } from '@wellstream/contracts';
import type { ServiceContext } from '../start-service';
import { OrganizationOwnerRepository } from './organization-owner.repository';

/** Opens the projection, starts following the topic (stopped with the service) and hands the projection back. */
export async function followOrganizationOwners(ctx: ServiceContext): Promise<OrganizationOwnerRepository> {
  const owners = await OrganizationOwnerRepository.open(ctx.store);
  await ctx.eventLog.ensureTopic(organizationEventsTopic.spec);
  await ctx.consume(organizationEventsTopic, { groupId: `${ctx.name}.organization-owners`, fromBeginning: true, handle: (e) => owners.apply(e.organization) });
  return owners;
}
