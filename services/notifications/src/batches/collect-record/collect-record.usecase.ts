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

export interface CollectRecordDeps {
  targets: TargetRepository;
  pendingItems: PendingItemRepository;
  clock: Clock;
  /** Erased users: their events still on the log are not queued (docs/data-lifecycle.md). */
  erased?: { has(userId: string): boolean };
}

/** True when the record was queued for the organization's next batch. */
export async function collectRecord(deps: CollectRecordDeps, event: CustomerEvent, batch: ReadBatch): Promise<boolean> {
  if (event.event_type !== 'data' || deps.erased?.has(event.user_id)) return false;
  const target = await batch.shared(`target ${event.organization_id}`, () => deps.targets.get(event.organization_id));
  if (!target || !targetWants(target, event.resource, event.created_at)) return false;
  const now = deps.clock.now().getTime();
  return deps.pendingItems.add({
    _id: event.id,
    organization_id: event.organization_id,
    enqueued_ms: now,
    order: nextArrivalOrder(now),
    record: event.payload,
  });
}
