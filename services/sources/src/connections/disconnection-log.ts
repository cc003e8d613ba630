/**
 * A record of every ended connection (who, which source, when, why). It is the audit trail an
 * operator asks for, and the document the outbox's state check points at for a `disconnected`
 * event, since the connection itself is gone by then.
 */
import type { Collection, CollectionSpec, DocumentStore } from '@wellstream/store';

export interface Disconnection {
  _id: string;
  connection_id: string;
  user_id: string;
  source_type: string;
  reason: string;
  revoked_at_provider: boolean;
  at: string;
}

export const DISCONNECTIONS_COLLECTION = 'disconnections';
/** As every opener declares it: a user's last disconnection of a source; a user's log in pages. */
export const DISCONNECTIONS_SPEC: CollectionSpec = {
  name: DISCONNECTIONS_COLLECTION,
  partitionKey: 'user_id',
  indexes: [{ fields: { user_id: 1, source_type: 1, at: -1 } }, { fields: { user_id: 1, _id: 1 } }],
};

export class DisconnectionLog {
  private constructor(private readonly docs: Collection<Disconnection>) {}

  static async open(store: DocumentStore): Promise<DisconnectionLog> {
    return new DisconnectionLog(await store.collection<Disconnection>(DISCONNECTIONS_SPEC));
  }

  add(d: Disconnection): Promise<void> {
    return this.docs.insertOne(d);
  }

  /** When the user's connection to this source last ended here; null when it never did. */
  async lastAt(userId: string, sourceType: string): Promise<string | null> {
    const [last] = await this.docs.find({ user_id: userId, source_type: sourceType }, { sort: { at: -1 }, limit: 1 });
    return last?.at ?? null;
  }
}
