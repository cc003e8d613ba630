/**
 * Feeds the organization-owner projection from the `organizations` topic, from the beginning (the
 * topic is compacted, so a fresh database is rebuilt from it).
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { consumeEvents, organizationEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { OrganizationOwnerRepository } from './organization-owner.repository';

export async function consumeOrganizationOwners(eventLog: EventLog, owners: OrganizationOwnerRepository, logger: Logger): Promise<Subscription> {
  await eventLog.ensureTopic(organizationEventsTopic.spec);
  return consumeEvents(eventLog, organizationEventsTopic, {
    groupId: 'users.organization-owners',
    fromBeginning: true,
    logger,
    handle: (e) => owners.apply(e.organization),
  });
}
