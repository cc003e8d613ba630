/**
 * Push hands out nothing of a gone (deleted or erased) user from the moment the service knows it:
 * their items are taken out of the queue and of every batch not yet delivered (the batch counts
 * them in `withheld_items`; a batch left empty goes), the status endpoints no longer show them, and
 * a redelivery does not send them. A deleted user's items are kept aside for the special-request
 * export (withheld-item.repository.ts); an erased user's are not kept.
 */
import { yieldToOthers } from '@wellstream/contracts';
import type { Clock } from '@wellstream/clock';
import { Batch, BATCH_RETENTION_MS } from '../batches/batch';
import type { BatchRepository } from '../batches/batch.repository';
import type { PendingItem, PendingItemRepository } from '../batches/pending-item.repository';
import type { WithheldItem, WithheldItemRepository } from './withheld-item.repository';

/** One organization's deleted and erased users (implemented by libs/runtime `GoneUsers`). */
export interface GoneUsersOf {
  has(userId: string): boolean;
  /** Erased, not only deleted: nothing of theirs is kept aside. */
  erased(userId: string): boolean;
}

/** `fresh`: also every deletion that was on the log a moment before the call. */
export interface GoneUsersSource {
  forOrganization(organizationId: string, fresh?: boolean): Promise<GoneUsersOf>;
}

export const userOfRecord = (record: Record<string, unknown>): string | undefined => (record.user as { user_id?: string } | undefined)?.user_id;

const isGone = (gone: GoneUsersOf) => (record: Record<string, unknown>) => gone.has(userOfRecord(record) ?? '');

/** The batch as a customer may see it: without gone users' items, counting them as withheld; null when none is left. */
export function visibleBatch(batch: Batch, gone: GoneUsersOf): Batch | null {
  const kept = batch.items.filter((r) => !isGone(gone)(r));
  if (kept.length === batch.items.length) return batch;
  if (kept.length === 0) return null;
  return { ...batch, items: kept, withheld_items: (batch.withheld_items ?? 0) + batch.items.length - kept.length };
}

export interface WithholdDeps {
  batches: BatchRepository;
  pending: PendingItemRepository;
  withheld: WithheldItemRepository;
  clock: Clock;
}

function aside(gone: GoneUsersOf, batchId: string | null, organizationId: string, at: string, items: { id: string; record: Record<string, unknown> }[]): WithheldItem[] {
  return items
    .filter((i) => !gone.erased(userOfRecord(i.record) ?? ''))
    .map((i) => ({ _id: `${batchId ?? 'queue'}:${i.id}`, organization_id: organizationId, user_id: userOfRecord(i.record) ?? '', batch_id: batchId, withheld_at: at, record: i.record }));
}

/** Takes gone users' items out of a stored batch; resolves to the batch as it is now (null: it went). */
export async function withholdFromBatch(deps: WithholdDeps, read: Batch, gone: GoneUsersOf): Promise<Batch | null> {
  let batch: Batch | null = read;
  // Two withholdings of one batch at once (a try, and the rewrite after a deletion): the second
  // reads the batch again rather than count the same items twice.
  for (let attempt = 0; batch && attempt < 5; attempt++) {
    const current: Batch = batch;
    const all = current.items.map((record, i) => ({ id: current.item_ids.length === current.items.length ? current.item_ids[i] : String(record.id ?? i), record }));
    const out = all.filter((i) => isGone(gone)(i.record));
    if (out.length === 0) return current;
    const kept = all.filter((i) => !isGone(gone)(i.record));
    await deps.withheld.keep(aside(gone, current._id, current.organization_id, deps.clock.now().toISOString(), out));
    const items = kept.map((i) => i.record);
    const itemIds = kept.map((i) => i.id);
    const result = await deps.batches.withhold(current, items, itemIds, out.length);
    if (result === 'removed') return null;
    if (result === 'kept') return { ...current, items, item_ids: itemIds, withheld_items: (current.withheld_items ?? 0) + out.length };
    batch = await deps.batches.byId(current._id);
  }
  if (batch) throw new Error(`could not withhold items of batch ${batch._id}: too much contention`);
  return null;
}

/** Takes gone users' items out of the queue; resolves to the items left. */
export async function withholdFromQueue(deps: Pick<WithholdDeps, 'pending' | 'withheld' | 'clock'>, organizationId: string, items: PendingItem[], gone: GoneUsersOf): Promise<PendingItem[]> {
  const out = items.filter((i) => isGone(gone)(i.record));
  if (out.length === 0) return items;
  await deps.withheld.keep(aside(gone, null, organizationId, deps.clock.now().toISOString(), out.map((i) => ({ id: i._id, record: i.record }))));
  await deps.pending.remove(out.map((i) => i._id));
  return items.filter((i) => !isGone(gone)(i.record));
}

/**
 * Once per deleted user (the gone-users group): the organization's batches and queue without the
 * user's items, while no batch of it is being formed. An erased user's go with the erasure itself.
 */
export async function withholdUser(
  deps: WithholdDeps & { whileNotForming<T>(organizationId: string, work: () => Promise<T>): Promise<T> },
  user: { userId: string; organizationId: string; erased: boolean; at: string },
): Promise<void> {
  if (user.erased) return;
  // Batches are kept 30 days: an older deletion (a group reading the users topic for the first
  // time meets every deleted user kept) has nothing left here to take out.
  if (Date.parse(user.at) < deps.clock.now().getTime() - BATCH_RETENTION_MS) return;
  const one: GoneUsersOf = { has: (id) => id === user.userId, erased: () => false };
  await deps.whileNotForming(user.organizationId, async () => {
    for await (const page of deps.batches.pagesOfOrganization(user.organizationId)) {
      for (const b of page) await withholdFromBatch(deps, b, one);
      await yieldToOthers();
    }
    for await (const page of deps.pending.pagesOfOrganization(user.organizationId)) await withholdFromQueue(deps, user.organizationId, page, one);
  });
}
