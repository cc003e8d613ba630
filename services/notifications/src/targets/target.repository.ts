/**
 * Notification targets over the document-store port (one document per organization).
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { NotificationTarget } from './target';

export class TargetRepository {
  private constructor(private readonly targets: Collection<NotificationTarget>) {}

  static async open(store: DocumentStore): Promise<TargetRepository> {
    return new TargetRepository(await store.collection<NotificationTarget>({ name: 'notification_targets' }));
  }

  get(organizationId: string): Promise<NotificationTarget | null> {
    return this.targets.findOne({ _id: organizationId });
  }

  /** Replaces the target; keeps the first configuration time (it bounds which records are "new"). */
  async put(target: Omit<NotificationTarget, 'created_at' | 'updated_at'>, now: string): Promise<NotificationTarget> {
    const { _id, ...fields } = target;
    const saved = await this.targets.findOneAndUpdate(
      { _id },
      // _id comes from the filter on insert (both adapters seed upserts from filter equalities).
      { $set: { ...fields, updated_at: now }, $setOnInsert: { created_at: now } },
      { upsert: true },
    );
    return saved as NotificationTarget;
  }

  async delete(organizationId: string): Promise<boolean> {
    return (await this.targets.deleteMany({ _id: organizationId })) > 0;
  }
}
