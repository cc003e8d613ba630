/**
 * The user projection collection over the DocumentStore port.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';
import type { UserSnapshot } from '@wellstream/contracts';
import { ProjectedUser, projectionFields } from './user-projection';

export class UserProjectionRepository {
  private constructor(private readonly users: Collection<ProjectedUser>) {}

  static async open(store: DocumentStore): Promise<UserProjectionRepository> {
    const users = await store.collection<ProjectedUser>({
      name: 'user_projection',
      indexes: [{ fields: { mobile_token: 1 } }, { fields: { organization_id: 1, uid: 1 } }],
    });
    return new UserProjectionRepository(users);
  }

  /** Applies a snapshot unless a newer one is already there (snapshots may arrive twice). */
  async apply(snapshot: UserSnapshot): Promise<ProjectedUser | null> {
    try {
      return await this.users.findOneAndUpdate(
        { _id: snapshot.id, updated_at: { $lte: snapshot.updated_at } },
        { $set: projectionFields(snapshot), $setOnInsert: { detected_sources: [] } },
        { upsert: true },
      );
    } catch (err) {
      // The filter missed because the stored snapshot is newer: the upsert collides on _id.
      if (err instanceof DuplicateKeyError) return this.byId(snapshot.id);
      throw err;
    }
  }

  byId(id: string): Promise<ProjectedUser | null> {
    return this.users.findOne({ _id: id });
  }

  byMobileToken(token: string): Promise<ProjectedUser | null> {
    return this.users.findOne({ mobile_token: token });
  }

  /** The live user with this uid in the organization (a deleted uid may have been reused). */
  async byUid(organizationId: string, uid: string): Promise<ProjectedUser | null> {
    return this.users.findOne({ organization_id: organizationId, uid, status: { $ne: 'deleted' } });
  }

  async markDetected(userId: string, detected: string[]): Promise<void> {
    await this.users.findOneAndUpdate({ _id: userId }, { $set: { detected_sources: detected } });
  }

  /** Users whose demo source should be running (start-up). */
  async withSource(sourceType: string): Promise<ProjectedUser[]> {
    const active = await this.users.find({ status: 'active' });
    return active.filter((u) => u.sources.includes(sourceType));
  }
}
