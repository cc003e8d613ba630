/**
 * Per-organization batching state: a lease so that one replica at a time forms an organization's
 * batches (their order then follows formation), and the counter that numbers them.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';

interface PushOrganization {
  _id: string;
  form_lease_until_ms: number;
  batch_seq: number;
}

export class PushOrganizationRepository {
  private constructor(private readonly orgs: Collection<PushOrganization>) {}

  static async open(store: DocumentStore): Promise<PushOrganizationRepository> {
    return new PushOrganizationRepository(await store.collection<PushOrganization>({ name: 'notification_organizations' }));
  }

  /** True when this caller now holds the formation lease of the organization. */
  async leaseFormation(organizationId: string, now: number, leaseMs: number): Promise<boolean> {
    try {
      const doc = await this.orgs.findOneAndUpdate(
        { _id: organizationId, form_lease_until_ms: { $lte: now } },
        { $set: { form_lease_until_ms: now + leaseMs }, $setOnInsert: { batch_seq: 0 } },
        { upsert: true },
      );
      return doc !== null;
    } catch (err) {
      // The upsert found the document but its lease unexpired: someone else is forming.
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  async releaseFormation(organizationId: string): Promise<void> {
    await this.orgs.updateMany({ _id: organizationId }, { $set: { form_lease_until_ms: 0 } });
  }

  async nextSeq(organizationId: string): Promise<number> {
    const doc = await this.orgs.findOneAndUpdate({ _id: organizationId }, { $inc: { batch_seq: 1 } }, { upsert: true });
    return doc!.batch_seq;
  }
}
