/**
 * Feeds a service's organization-owner projection from the `organizations` topic, from the beginning
 * (the topic is compacted, so a fresh database is rebuilt from it). Each service follows in a group
 * of its own (`<service>.organization-owners`): replicas of one service share its database.
 */
import { organizationEventsTopic } from '@wellstream/contracts';
import type { ServiceContext } from '../start-service';
import { OrganizationOwnerRepository } from './organization-owner.repository';

/**
 * Opens the projection, starts following the topic (stopped with the service) and hands back the
 * projection with its group, as createStandardServiceApp's `organizationOwners` takes them.
 */
export async function followOrganizationOwners(ctx: ServiceContext): Promise<{ projection: OrganizationOwnerRepository; groupId: string }> {
  const projection = await OrganizationOwnerRepository.open(ctx.store);
  const groupId = `${ctx.name}.organization-owners`;
  await ctx.eventLog.ensureTopic(organizationEventsTopic.spec);
  await ctx.consume(organizationEventsTopic, { groupId, fromBeginning: true, handle: (e) => projection.apply(e.organization) });
  return { projection, groupId };
}
