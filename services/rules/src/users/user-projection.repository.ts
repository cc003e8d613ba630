/**
 * The rules service's projection of users, fed by the `users` topic: (organization, uid) → user id,
 * customer and status. Only the newest snapshot of a user is kept.
 */
import type { UserSnapshot, UserStatus } from '@wellstream/contracts';
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';

export interface KnownUser {
  _id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  status: UserStatus;
  updated_at: string;
}

export class UserProjectionRepository {
  private constructor(readonly users: Collection<KnownUser>) {}

  static async open(store: DocumentStore): Promise<UserProjectionRepository> {
    return new UserProjectionRepository(
      await store.collection<KnownUser>({ name: 'users', indexes: [{ fields: { organization_id: 1, uid: 1, updated_at: -1 } }] }),
    );
  }

  /**
   * Keeps the snapshot unless a newer one is already stored (a redelivered older message must not
   * undo a later change). Only the port's documented contract is used (insertOne reports a taken
   * _id), so every adapter behaves alike; a lost insert race simply re-runs as an update.
   */
  async apply(user: UserSnapshot): Promise<void> {
    const status: UserStatus = user.deleted_at ? 'deleted' : user.status;
    const fields = { uid: user.uid, organization_id: user.organization_id, customer_id: user.customer_id, status, updated_at: user.updated_at };
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.users.findOne({ _id: user.id });
      if (current) {
        await this.users.findOneAndUpdate({ _id: user.id, updated_at: { $lte: user.updated_at } }, { $set: fields });
        return;
      }
      try {
        await this.users.insertOne({ _id: user.id, ...fields });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
  }

  /** The live (not deleted) user with this uid in the organization; a suspended user is returned. */
  findByUid = (organizationId: string, uid: string) =>
    this.users.findOne({ organization_id: organizationId, uid, status: { $ne: 'deleted' } }, { sort: { updated_at: -1 } });

  findById = (id: string) => this.users.findOne({ _id: id });
}
