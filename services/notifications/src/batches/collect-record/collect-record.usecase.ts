/**
 * Takes one customer event off the log: a `data` event of an organization with a target that wants
 * its record type becomes a pending item. The consumer commits the event only after this resolves,
 * so every wanted record is durable here before the log forgets it. The target is looked up once
 * per batch of events read together (`batch`): each of them was published before that lookup.
 */
import type { CustomerEvent, ReadBatch } from '@wellstream/contracts';
import { targetWants } from '../../targets/target';
import type { TargetRepository } from '../../targets/target.repository';
import { nextArrivalOrder, PendingItemRepository } from '../pending-item.repository';
import type { Clock } from '@wellstream/clock';
import type { GoneUsersSource } from '../../withheld/withhold-gone';

export interface CollectRecordDeps {
  targets: TargetRepository;
  pendingItems: PendingItemRepository;
  clock: Clock;
  /** Deleted and erased users: their events still on the log are not queued. */
  gone: GoneUsersSource;
}

/** True when the record was queued for the organization's next batch. */
export async function collectRecord(deps: CollectRecordDeps, event: CustomerEvent, batch: ReadBatch): Promise<boolean> {
  if (event.event_type !== 'data') return false;
  const target = await batch.shared(`target ${event.organization_id}`, () => deps.targets.get(event.organization_id));
  if (!target || !targetWants(target, event.resource, event.created_at)) return false;
  // Asked only for organizations with a target: this process holds the gone users of those alone.
  if ((await deps.gone.forOrganization(event.organization_id)).has(event.user_id)) return false;
  const now = deps.clock.now().getTime();
  return deps.pendingItems.add({
    _id: event.id,
    organization_id: event.organization_id,
    enqueued_ms: now,
    order: nextArrivalOrder(now),
    record: event.payload,
  });
}
