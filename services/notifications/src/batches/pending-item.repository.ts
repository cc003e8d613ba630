/**
 * Records waiting to be batched: the durable buffer between the event consumer and batch
 * formation. An event is committed on the log only after its item is stored here, so a crash
 * loses nothing; the event id is the item id, so a redelivered event is stored once.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';

export interface PendingItem {
  /** The customer event's id. */
  _id: string;
  organization_id: string;
  enqueued_ms: number;
  /** Arrival order (µs-scaled, strictly increasing per process): the order of items in batches. */
  order: number;
  record: Record<string, unknown>;
}

export class PendingItemRepository {
  private constructor(private readonly items: Collection<PendingItem>) {}

  static async open(store: DocumentStore): Promise<PendingItemRepository> {
    return new PendingItemRepository(
      await store.collection<PendingItem>({
        name: 'notification_pending_items',
        // Items leave once batched: a scan costs the backlog, not the history.
        backlog: true,
        indexes: [{ fields: { organization_id: 1, order: 1, _id: 1 } }, { fields: { order: 1 } }],
      }),
    );
  }

  /** False when the item was already there (the same event delivered again). */
  async add(item: PendingItem): Promise<boolean> {
    try {
      await this.items.insertOne(item);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** The oldest waiting items of all organizations: enough to see which organizations are due. */
  oldest(limit: number): Promise<PendingItem[]> {
    return this.items.find({}, { sort: { order: 1 }, limit });
  }

  forOrganization(organizationId: string, limit: number): Promise<PendingItem[]> {
    return this.items.find({ organization_id: organizationId }, { sort: { order: 1, _id: 1 }, limit });
  }

  /** An organization's waiting items, a page at a time. */
  pagesOfOrganization(organizationId: string, pageSize = 200): AsyncIterable<PendingItem[]> {
    return this.items.findPages({ organization_id: organizationId }, { sort: { order: 1 }, pageSize });
  }

  remove(ids: string[]): Promise<number> {
    return ids.length ? this.items.deleteMany({ _id: { $in: ids } }) : Promise.resolve(0);
  }

  removeOrganization(organizationId: string): Promise<number> {
    return this.items.deleteMany({ organization_id: organizationId });
  }
}

let lastOrder = 0;
/** Strictly increasing within the process, close to wall time across replicas. */
export function nextArrivalOrder(nowMs: number): number {
  lastOrder = Math.max(nowMs * 1000, lastOrder + 1);
  return lastOrder;
}
