/**
 * The consumer-group member that feeds batching from the `events` topic. A store error throws, so
 * the log redelivers the event instead of committing past it.
 */
import { EventLog, Subscription, VOLUME_COMMIT_EVERY_MS } from '@wellstream/bus';
import { consumeEvents, customerEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import { collectRecord, CollectRecordDeps } from './collect-record.usecase';

export const PUSH_CONSUMER_GROUP = 'notifications.push';

export function startCollectingRecords(
  eventLog: EventLog,
  deps: CollectRecordDeps & { logger: Logger; onQueued(organizationId: string): void },
): Promise<Subscription> {
  return consumeEvents(eventLog, customerEventsTopic, {
    groupId: PUSH_CONSUMER_GROUP,
    // Records older than an organization's target are skipped anyway (targetWants), so reading
    // from the beginning only matters for a group that never ran: nothing published is missed.
    fromBeginning: true,
    commitEveryMs: VOLUME_COMMIT_EVERY_MS,
    logger: deps.logger,
    handle: async (event, { batch }) => {
      if (await collectRecord(deps, event, batch)) deps.onQueued(event.organization_id);
    },
  });
}
