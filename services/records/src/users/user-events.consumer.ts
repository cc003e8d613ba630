/**
 * Subscribes the records service to the users and organizations topics. From the beginning, so a
 * fresh records database is rebuilt from the (compacted) topics.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { consumeEvents, MOBILE_TOKEN_COPIES, organizationEventsTopic, userEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { OrganizationProjection } from '../organizations/organization-projection';
import { applyUserEvent, ApplyUserEventDeps } from './apply-user-event/apply-user-event.usecase';

export const USER_PROJECTION_GROUP = MOBILE_TOKEN_COPIES.records;
export const ORGANIZATION_PROJECTION_GROUP = 'records.organization-projection';

export async function consumeProjections(
  eventLog: EventLog,
  logger: Logger,
  deps: ApplyUserEventDeps & { organizations: OrganizationProjection },
): Promise<Subscription[]> {
  await eventLog.ensureTopic(userEventsTopic.spec);
  await eventLog.ensureTopic(organizationEventsTopic.spec);
  return [
    await consumeEvents(eventLog, userEventsTopic, { groupId: USER_PROJECTION_GROUP, fromBeginning: true, logger, handle: (e) => applyUserEvent(deps, e) }),
    await consumeEvents(eventLog, organizationEventsTopic, {
      groupId: ORGANIZATION_PROJECTION_GROUP,
      fromBeginning: true,
      logger,
      handle: (e) => deps.organizations.apply(e.organization),
    }),
  ];
}
