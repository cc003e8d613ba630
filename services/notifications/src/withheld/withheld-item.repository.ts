/**
 * Push items withheld because their user was deleted: taken out of the queue or of a batch not yet
 * delivered, so no customer channel hands them out, and kept here instead, because a deleted user's
 * data stays available on the operator's special request (the export reads them) until the user is
 * erased or its retention ends (the erasure removes them). An erased user's items are not kept.
 */
import type { Collection, DocumentStore } from '@wellstream/store';

export interface WithheldItem {
  /** `<batch id or "queue">:<event id>`: the same item withheld twice is kept once. */
  _id: string;
  organization_id: string;
  user_id: string;
  /** The batch it was taken from, or null when it was still waiting for one. */
  batch_id: string | null;
  withheld_at: string;
  record: Record<string, unknown>;
}

export class WithheldItemRepository {
  private constructor(private readonly items: Collection<WithheldItem>) {}

  static async open(store: DocumentStore): Promise<WithheldItemRepository> {
    return new WithheldItemRepository(
      await store.collection<WithheldItem>({ name: 'notification_withheld_items', indexes: [{ fields: { organization_id: 1, user_id: 1, _id: 1 } }] }),
    );
  }

  async keep(items: WithheldItem[]): Promise<void> {
    if (items.length) await this.items.bulkUpsert(items);
  }

  /** One user's withheld items, a page at a time (the special-request export). */
  pagesOfUser(organizationId: string, userId: string, pageSize = 200): AsyncIterable<WithheldItem[]> {
    return this.items.findPages({ organization_id: organizationId, user_id: userId }, { sort: { _id: 1 }, pageSize });
  }

  removeUser(organizationId: string, userId: string): Promise<number> {
    return this.items.deleteMany({ organization_id: organizationId, user_id: userId });
  }
}
