/**
 * Connections, and the key documents that find one from a provider's user id (a webhook names
 * only that): every lookup pins `_id`, so it is one keyed read on either store.
 */
import type { Collection, CollectionSpec, DocumentStore, Update } from '@wellstream/store';
import type { Connection } from './connection';

export const CONNECTIONS_COLLECTION = 'connections';
/** As every opener declares it: a user's connections; a provider's connections (and how many). */
export const CONNECTIONS_SPEC: CollectionSpec = { name: CONNECTIONS_COLLECTION, indexes: [{ fields: { user_id: 1 } }, { fields: { source_type: 1, status: 1 } }] };

interface ProviderUserKey {
  _id: string;
  connection_id: string;
}

const providerKeyId = (type: string, providerUserId: string) => `${type}:${providerUserId}`;

export class ConnectionRepository {
  private constructor(
    private readonly connections: Collection<Connection>,
    private readonly keys: Collection<ProviderUserKey>,
  ) {}

  static async open(store: DocumentStore): Promise<ConnectionRepository> {
    return new ConnectionRepository(
      await store.collection<Connection>(CONNECTIONS_SPEC),
      await store.collection<ProviderUserKey>({ name: 'provider_user_keys' }),
    );
  }

  byId(id: string): Promise<Connection | null> {
    return this.connections.findOne({ _id: id });
  }

  byIds(ids: string[]): Promise<Connection[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.connections.find({ _id: { $in: ids } });
  }

  async byProviderUser(type: string, providerUserId: string): Promise<Connection | null> {
    const key = await this.keys.findOne({ _id: providerKeyId(type, providerUserId) });
    return key ? this.byId(key.connection_id) : null;
  }

  /**
   * Whether any user is connected to a provider (the app-subscription keeper's question): the first
   * match answers it, served by the (source_type, status) index, instead of counting every connection.
   */
  async anyOf(type: string): Promise<boolean> {
    return (await this.connections.findOne({ source_type: type })) !== null;
  }

  /** Every connection to one source (the demo source's users, at start), served by the (source_type, status) index. */
  ofType(type: string): Promise<Connection[]> {
    return this.connections.find({ source_type: type });
  }

  /** How many users are connected to a provider (the poll interval that fits its daily budget). */
  countOf(type: string): Promise<number> {
    return this.connections.count({ source_type: type });
  }

  async save(c: Connection): Promise<void> {
    await this.connections.bulkUpsert([c]);
    if (c.provider_user_id) await this.keys.bulkUpsert([{ _id: providerKeyId(c.source_type, c.provider_user_id), connection_id: c._id }]);
  }

  /** Stores a new connection; DuplicateKeyError when one is stored already (a concurrent connect). */
  async insert(c: Connection): Promise<void> {
    await this.connections.insertOne(c);
  }

  /** An update that applies only if `filter` still holds (optimistic); the document after it, or null. */
  update(id: string, update: Update, expect: Partial<Pick<Connection, 'token_rev' | 'sync_seq'>> = {}): Promise<Connection | null> {
    return this.connections.findOneAndUpdate({ _id: id, ...expect }, update);
  }

  /** `update` unless the connection expired meanwhile (its grant refused) or is gone; the document after it, or null. */
  updateUnlessExpired(id: string, update: Update): Promise<Connection | null> {
    return this.connections.findOneAndUpdate({ _id: id, status: { $ne: 'auth_expired' } }, update);
  }

  /** Takes the refresh lock when nobody holds it; null when someone does. */
  lockRefresh(id: string, now: Date, holdMs: number): Promise<Connection | null> {
    return this.connections.findOneAndUpdate({ _id: id, refresh_lock_until: { $lt: now.toISOString() } }, { $set: { refresh_lock_until: new Date(now.getTime() + holdMs).toISOString() } });
  }

  async remove(c: Connection): Promise<void> {
    await this.connections.deleteMany({ _id: c._id });
    if (c.provider_user_id) await this.keys.deleteMany({ _id: providerKeyId(c.source_type, c.provider_user_id) });
  }
}
