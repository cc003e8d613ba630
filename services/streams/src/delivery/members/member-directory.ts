/**
 * Where the streams replicas tell each other how many clients each stream has on them: one small
 * document per replica (its counts and how long they hold), rewritten when counts change and at a
 * steady pace otherwise. A replica that stops writing (killed) drops out once its document expires,
 * so a count never includes clients that have been gone for longer than that.
 *
 * One document per replica keeps the cost a write per replica per beat and a read of a few
 * documents per snapshot, whatever the number of streams; a document per stream would cost a write
 * per stream per beat.
 */
import type { Collection, DocumentStore } from '@wellstream/store';

interface ReplicaMembersDoc {
  _id: string;
  /** The streams with clients on this replica, and how many. */
  counts: { group: string; clients: number }[];
  /** ISO time. */
  alive_until: string;
}

export class MemberDirectory {
  private constructor(private readonly replicas: Collection<ReplicaMembersDoc>) {}

  static async open(store: DocumentStore): Promise<MemberDirectory> {
    return new MemberDirectory(await store.collection<ReplicaMembersDoc>({ name: 'stream_replica_members', indexes: [{ fields: { alive_until: 1 } }] }));
  }

  async publish(replica: string, counts: Map<string, number>, aliveUntil: Date): Promise<void> {
    await this.replicas.bulkUpsert([{ _id: replica, counts: [...counts].map(([group, clients]) => ({ group, clients })), alive_until: aliveUntil.toISOString() }]);
  }

  /** Clients per stream on the live replicas other than `self`. */
  async others(self: string, now: Date): Promise<Map<string, number>> {
    const docs = await this.replicas.find({ alive_until: { $gt: now.toISOString() } });
    const sums = new Map<string, number>();
    for (const d of docs) {
      if (d._id === self) continue;
      for (const { group, clients } of d.counts) sums.set(group, (sums.get(group) ?? 0) + clients);
    }
    return sums;
  }

  /** Removes this replica's document (a clean stop) and those of replicas long dead. */
  async remove(replica: string): Promise<void> {
    await this.replicas.deleteMany({ _id: replica });
  }

  async sweep(before: Date): Promise<number> {
    return this.replicas.deleteMany({ alive_until: { $lt: before.toISOString() } });
  }
}
