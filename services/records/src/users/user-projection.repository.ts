/**
 * The user projection collection over the DocumentStore port.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';
import type { UserSnapshot } from '@wellstream/contracts';
import { ProjectedUser, projectionFields, withDefaults } from './user-projection';

export class UserProjectionRepository {
  private constructor(private readonly users: Collection<ProjectedUser>) {}

  static async open(store: DocumentStore): Promise<UserProjectionRepository> {
    const users = await store.collection<ProjectedUser>({
      name: 'user_projection',
      indexes: [{ fields: { mobile_token: 1 } }, { fields: { organization_id: 1, uid: 1 } }],
    });
    return new UserProjectionRepository(users);
  }

  /**
   * Applies a snapshot unless a newer one is already there (snapshots may arrive twice). Every
   * write leaves a whole document: an update of the projected fields, or an insert of a complete
   * one (never an upsert completed by a second write, which a reader could see half done).
   */
  async apply(snapshot: UserSnapshot): Promise<ProjectedUser | null> {
    const fields = projectionFields(snapshot);
    const newer = () => this.users.findOneAndUpdate({ _id: snapshot.id, updated_at: { $lte: snapshot.updated_at } }, { $set: fields });
    const updated = await newer();
    if (updated) return withDefaults(updated);
    const doc: ProjectedUser = { _id: snapshot.id, ...fields, detected_sources: [] };
    try {
      await this.users.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Inserted meanwhile (by a concurrent apply), or a newer snapshot is stored: try once more.
      return withDefaults(await newer()) ?? this.byId(snapshot.id);
    }
  }

  async byId(id: string): Promise<ProjectedUser | null> {
    return withDefaults(await this.users.findOne({ _id: id }));
  }

  async byMobileToken(token: string): Promise<ProjectedUser | null> {
    return withDefaults(await this.users.findOne({ mobile_token: token }));
  }

  /** The live user with this uid in the organization (a deleted uid may have been reused). */
  async byUid(organizationId: string, uid: string): Promise<ProjectedUser | null> {
    return withDefaults(await this.users.findOne({ organization_id: organizationId, uid, status: { $ne: 'deleted' } }));
  }

  async markDetected(userId: string, detected: string[]): Promise<void> {
    await this.users.findOneAndUpdate({ _id: userId }, { $set: { detected_sources: detected } });
  }

  /** Users whose demo source should be running (start-up). */
  async withSource(sourceType: string): Promise<ProjectedUser[]> {
    const active = (await this.users.find({ status: 'active' })).map((u) => withDefaults(u)!);
    return active.filter((u) => u.sources.includes(sourceType));
  }
}
