/**
 * What records keeps of each connection (the sources service's `source-connections` topic: every
 * kind, providers, the demo source and the phone apps): its status, last successful sync and
 * backfill, for the availability endpoint. One document per (user, source), kept after a
 * disconnection, keyed by both, so every read is by primary key.
 */
import type { SourceConnectionEvent } from '@wellstream/contracts';
import type { Collection, CollectionSpec, DocumentStore } from '@wellstream/store';

export interface SourceConnectionDoc {
  _id: string;
  user_id: string;
  source_type: string;
  status: 'active' | 'auth_expired' | 'error' | 'disconnected';
  connected_at: string;
  last_synced_at: string | null;
  backfill: SourceConnectionEvent['backfill'];
  /** Resources whose backfill the sources service reported complete, with the range fetched. */
  backfilled: Record<string, { start: string; end: string }>;
  reason: string | null;
  occurred_at: string;
}

export const connectionIdOf = (userId: string, sourceType: string) => `${userId}:${sourceType}`;

/** As every opener declares it: read by id, erased by user. */
export const SOURCE_CONNECTION_PROJECTION_SPEC: CollectionSpec = { name: 'source_connection_projection', indexes: [{ fields: { user_id: 1 } }] };

export class SourceConnectionProjection {
  private constructor(private readonly docs: Collection<SourceConnectionDoc>) {}

  static async open(store: DocumentStore): Promise<SourceConnectionProjection> {
    return new SourceConnectionProjection(await store.collection<SourceConnectionDoc>(SOURCE_CONNECTION_PROJECTION_SPEC));
  }

  byIds(ids: string[]): Promise<SourceConnectionDoc[]> {
    return ids.length ? this.docs.find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** Applies one event; an event older than what is held changes nothing (at-least-once, redelivery). */
  async apply(e: SourceConnectionEvent): Promise<void> {
    const id = connectionIdOf(e.user_id, e.source_type);
    const [cur] = await this.byIds([id]);
    if (cur && cur.occurred_at > e.occurred_at) return;
    // A new connection starts a new history of backfills.
    const backfilled = e.action === 'connected' ? {} : { ...(cur?.backfilled ?? {}) };
    if (e.action === 'backfill_completed' && e.resource && e.range) backfilled[e.resource] = e.range;
    await this.docs.bulkUpsert([
      {
        _id: id,
        user_id: e.user_id,
        source_type: e.source_type,
        status: e.action === 'disconnected' ? 'disconnected' : e.status,
        connected_at: e.connected_at,
        last_synced_at: e.last_synced_at,
        backfill: e.backfill,
        backfilled,
        reason: e.action === 'disconnected' || e.action === 'auth_expired' || e.action === 'status' ? (e.reason ?? null) : null,
        occurred_at: e.occurred_at,
      },
    ]);
  }
}
