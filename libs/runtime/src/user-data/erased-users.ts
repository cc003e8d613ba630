/**
 * Users erased (docs/data-lifecycle.md), so a service skips their events from then on: on Kafka an erasure
 * leaves tombstones that the cleaner applies only at the topic's next compaction, and until then
 * the user's messages are still in the customer's topic (streams and replays read them; a
 * consumer behind the erasure, like the push collector, still has them to read). Kept in the
 * service's own store (from the `user-data-requests` topic) and in memory; the list grows with
 * erasures only, never with data.
 */
import type { Collection, DocumentStore } from '@wellstream/store';

export class ErasedUsers {
  private readonly ids = new Set<string>();

  private constructor(private readonly docs: Collection<{ _id: string; erased_at: string }>) {}

  static async open(store: DocumentStore): Promise<ErasedUsers> {
    const erased = new ErasedUsers(await store.collection<{ _id: string; erased_at: string }>({ name: 'erased_users' }));
    for await (const page of erased.docs.findPages({}, { sort: { _id: 1 }, pageSize: 500 })) for (const d of page) erased.ids.add(d._id);
    return erased;
  }

  has = (userId: string) => this.ids.has(userId);

  async add(userId: string, at: string): Promise<void> {
    this.ids.add(userId);
    await this.docs.bulkUpsert([{ _id: userId, erased_at: at }]);
  }
}
