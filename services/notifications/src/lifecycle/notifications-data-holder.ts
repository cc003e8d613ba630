/**
 * The notifications service's share of a user's data (docs/data-lifecycle.md): the push items that carried the
 * user's records, in batches already formed (with the batch's id, time and state) and waiting to
 * be batched. Batches belong to an organization, not a user, so this reads the organization's
 * batches a page at a time (the push queue keeps them only for its retention period), and an
 * erasure rewrites each batch without the user's records (a batch left empty goes).
 *
 * An erasure first marks the user erased (the collector then queues none of the user's events
 * still on the log, and batch formation drops any queued just before), then rewrites the queue and
 * the batches while no batch of the organization is being formed: a pass that had read the user's
 * items would otherwise store them in a batch after the rewrite had looked.
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import type { UserDataHolder } from '@wellstream/runtime';
import { yieldToOthers } from '@wellstream/contracts';
import type { BatchRepository } from '../batches/batch.repository';
import type { PendingItemRepository } from '../batches/pending-item.repository';
import type { WithheldItemRepository } from '../withheld/withheld-item.repository';

const ofUser = (userId: string) => (record: Record<string, unknown>) => (record.user as { user_id?: string } | undefined)?.user_id === userId;

export interface NotificationsDataDeps {
  batches: BatchRepository;
  pending: PendingItemRepository;
  /** Items withheld from push because the user was deleted: part of the export, gone with an erasure. */
  withheld: WithheldItemRepository;
  gone: { add(user: { userId: string; customerId: string; organizationId: string; at: string; erased: boolean }): Promise<void> };
  /** Runs its work while no batch of the organization is being formed (whileNotForming). */
  whileNotForming<T>(organizationId: string, work: () => Promise<T>): Promise<T>;
}

export function notificationsDataHolder({ batches, pending, withheld, gone, whileNotForming }: NotificationsDataDeps): UserDataHolder {
  return {
    service: 'notifications',
    async *exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]> {
      const mine = ofUser(request.user_id);
      for await (const page of batches.pagesOfOrganization(request.organization_id)) {
        yield page.flatMap((b) =>
          b.items.filter(mine).map((record) => ({ kind: 'push_item', data: { batch_id: b._id, batch_created_at: b.created_at, batch_state: b.state, attempts: b.attempt_count, record } })),
        );
      }
      for await (const page of pending.pagesOfOrganization(request.organization_id)) {
        yield page.filter((p) => mine(p.record)).map((p) => ({ kind: 'push_item', data: { batch_id: null, waiting_since: new Date(p.enqueued_ms).toISOString(), record: p.record } }));
      }
      for await (const page of withheld.pagesOfUser(request.organization_id, request.user_id)) {
        yield page.map((w) => ({ kind: 'push_item', data: { batch_id: w.batch_id, withheld_at: w.withheld_at, record: w.record } }));
      }
    },
    async erase(request: UserDataRequest): Promise<Record<string, number>> {
      await gone.add({ userId: request.user_id, customerId: request.customer_id, organizationId: request.organization_id, at: request.requested_at, erased: true });
      const mine = ofUser(request.user_id);
      return whileNotForming(request.organization_id, async () => {
        let items = 0;
        let batchesRemoved = 0;
        for await (const page of batches.pagesOfOrganization(request.organization_id)) {
          for (const b of page) {
            const left = b.items.filter((r) => !mine(r));
            if (left.length === b.items.length) continue;
            items += b.items.length - left.length;
            if ((await batches.keepItems(b, left)) === 'removed') batchesRemoved++;
          }
          await yieldToOthers();
        }
        const waiting: string[] = [];
        for await (const page of pending.pagesOfOrganization(request.organization_id)) waiting.push(...page.filter((p) => mine(p.record)).map((p) => p._id));
        return {
          push_items: items,
          batches_removed: batchesRemoved,
          pending_items: await pending.remove(waiting),
          withheld_items: await withheld.removeUser(request.organization_id, request.user_id),
        };
      });
    },
  };
}
