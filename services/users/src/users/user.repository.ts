/**
 * Where users live: one collection over the DocumentStore port (SQLite embedded, MongoDB
 * distributed). Unique indexes make uid-per-organization and both tokens unique even under races;
 * every update is conditional on `version` so two concurrent changes never overwrite each other.
 */
import type { Collection, DocumentStore, Filter, SortSpec } from '@wellstream/store';
import { DuplicateKeyError } from '@wellstream/store';
import { uidTaken } from './user.errors';
import type { User } from './user';

export class ConcurrentUpdateError extends Error {
  constructor() {
    super('the user changed concurrently; retry');
    this.name = 'ConcurrentUpdateError';
  }
}

export interface UserPage {
  users: User[];
  total: number;
}

export class UserRepository {
  private constructor(private readonly users: Collection<User>) {}

  static async open(store: DocumentStore): Promise<UserRepository> {
    const users = await store.collection<User>({
      name: 'users',
      indexes: [
        { fields: { organization_id: 1, uid: 1 }, unique: true },
        { fields: { marketplace_token: 1 }, unique: true },
        { fields: { mobile_token: 1 }, unique: true },
        { fields: { organization_id: 1, status: 1, created_at: 1 } },
      ],
    });
    return new UserRepository(users);
  }

  async insert(user: User): Promise<void> {
    try {
      await this.users.insertOne(user);
    } catch (err) {
      // The only unique key a caller controls is (organization, uid); tokens are 256-bit random.
      if (err instanceof DuplicateKeyError) throw uidTaken();
      throw err;
    }
  }

  /** Any status, deleted included (uids stay reserved after deletion). */
  findByUid(organizationId: string, uid: string): Promise<User | null> {
    return this.users.findOne({ organization_id: organizationId, uid });
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOne({ _id: id });
  }

  findByMarketplaceToken(token: string): Promise<User | null> {
    return this.users.findOne({ marketplace_token: token });
  }

  async listVisible(organizationId: string, page: { offset: number; limit: number; sort: SortSpec }): Promise<UserPage> {
    const filter: Filter = { organization_id: organizationId, status: { $ne: 'deleted' } };
    const [users, total] = await Promise.all([
      this.users.find(filter, { sort: { ...page.sort, _id: 1 }, skip: page.offset, limit: page.limit }),
      this.users.count(filter),
    ]);
    return { users, total };
  }

  /** Writes `next` if nobody changed the user since `current` was read; returns the stored user. */
  async replace(current: User, changes: Partial<Omit<User, '_id' | 'id' | 'version'>>): Promise<User> {
    const updated = await this.users.findOneAndUpdate(
      { _id: current._id, version: current.version },
      { $set: { ...changes }, $inc: { version: 1 } },
    );
    if (!updated) throw new ConcurrentUpdateError();
    return updated;
  }
}

/**
 * Runs read-modify-write `attempt` again when another writer got in between (bounded: a handful
 * of writers on one user is already unusual).
 */
export async function withRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ConcurrentUpdateError) || i >= tries) throw err;
    }
  }
}
