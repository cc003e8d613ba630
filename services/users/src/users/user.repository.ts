/**
 * Where users live: one collection over the DocumentStore port (SQLite embedded, MongoDB
 * distributed). Unique indexes make uid-per-organization and both tokens unique even under races;
 * every update is conditional on `version` so two concurrent changes never overwrite each other.
 */
import { randomUUID } from 'node:crypto';
import type { StateCheck } from '@wellstream/outbox';
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

export const USERS_COLLECTION = 'users';

/**
 * A write not done yet: the user as it will be stored, the check that tells (even after a crash)
 * whether it was, and the write itself. Events about the change are built from `next` and written
 * through the outbox with `apply` (see user-events.ts).
 */
export interface UserChange {
  next: User;
  stored: StateCheck;
  apply(): Promise<User>;
}

export class UserRepository {
  private constructor(private readonly users: Collection<User>) {}

  static async open(store: DocumentStore): Promise<UserRepository> {
    const users = await store.collection<User>({
      name: USERS_COLLECTION,
      indexes: [
        { fields: { organization_id: 1, uid: 1 }, unique: true },
        { fields: { marketplace_token: 1 }, unique: true },
        { fields: { mobile_token: 1 }, unique: true },
        // An organization's users in creation order, all of them, or (paged) those not deleted.
        { fields: { organization_id: 1, status: 1, created_at: 1, _id: 1 } },
        { fields: { organization_id: 1, created_at: 1, _id: 1 } },
        // The retention sweep: deleted users whose retention has passed.
        { fields: { status: 1, deleted_at: 1, _id: 1 } },
      ],
    });
    return new UserRepository(users);
  }

  creation(user: User): UserChange {
    return { next: user, stored: { collection: USERS_COLLECTION, filter: { _id: user._id } }, apply: async () => (await this.insert(user), user) };
  }

  /** A conditional replace (see `replace`); `write_id` makes its state check unique to this write. */
  change(current: User, changes: Partial<Omit<User, '_id' | 'id' | 'version'>>): UserChange {
    const writeId = randomUUID();
    const next: User = { ...current, ...changes, write_id: writeId, version: current.version + 1 };
    return {
      next,
      stored: { collection: USERS_COLLECTION, filter: { _id: current._id, write_id: writeId } },
      apply: () => this.replace(current, { ...changes, write_id: writeId }),
    };
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

  /** Deleted users deleted before `cutoff` (ISO time), oldest first: the retention sweep's work. */
  deletedBefore(cutoff: string, limit: number): Promise<User[]> {
    return this.users.find({ status: 'deleted', deleted_at: { $lt: cutoff } }, { sort: { deleted_at: 1, _id: 1 }, limit });
  }

  /** Erasure: the user document goes (its uid may be taken again). */
  async remove(id: string): Promise<void> {
    await this.users.deleteMany({ _id: id });
  }

  findByMarketplaceToken(token: string): Promise<User | null> {
    return this.users.findOne({ marketplace_token: token });
  }

  async listVisible(organizationId: string, page: { offset: number; limit: number; sort: SortSpec }): Promise<UserPage> {
    const filter: Filter = { organization_id: organizationId, status: { $ne: 'deleted' } };
    const [users, total] = await Promise.all([
      this.users.find(filter, { sort: { ...page.sort, _id: Object.values(page.sort)[0] ?? 1 }, skip: page.offset, limit: page.limit }),
      this.users.count(filter),
    ]);
    return { users, total };
  }

  /**
   * An organization's users that are not deleted, a page at a time, oldest first: each page one
   * short read served by the (organization_id, status, created_at) index.
   */
  pagesInOrganization(organizationId: string, pageSize: number): AsyncIterable<User[]> {
    return this.users.findPages({ organization_id: organizationId, status: { $in: ['active', 'suspended'] } }, { sort: { created_at: 1 }, pageSize });
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
