/**
 * Per-organization batching state: a lease so that one replica at a time forms an organization's
 * batches (their order then follows formation), and the counter that numbers them (changed only
 * under the lease).
 */
import { randomUUID } from 'node:crypto';
import { Collection, DocumentStore, Leases } from '@wellstream/store';

interface PushOrganization {
  _id: string;
  batch_seq: number;
}

/** The formation leases, taken by inserting a document (libs/store claims.ts: FerretDB runs a conditional update as a read and then a write). */
const FORMATION_LEASES = 'notification_formation_leases';

export class PushOrganizationRepository {
  /** This replica, as the holder of the leases it takes. */
  private readonly holder = `notifications_${randomUUID()}`;

  private constructor(
    private readonly orgs: Collection<PushOrganization>,
    private readonly leases: Leases,
  ) {}

  static async open(store: DocumentStore): Promise<PushOrganizationRepository> {
    return new PushOrganizationRepository(await store.collection<PushOrganization>({ name: 'notification_organizations' }), await Leases.open(store, FORMATION_LEASES));
  }

  /** True when this caller now holds the formation lease of the organization. */
  leaseFormation(organizationId: string, now: number, leaseMs: number): Promise<boolean> {
    return this.leases.take(organizationId, this.holder, now, leaseMs);
  }

  releaseFormation(organizationId: string): Promise<void> {
    return this.leases.release(organizationId, this.holder);
  }

  async nextSeq(organizationId: string): Promise<number> {
    const doc = await this.orgs.findOneAndUpdate({ _id: organizationId }, { $inc: { batch_seq: 1 } }, { upsert: true });
    return doc!.batch_seq;
  }
}
