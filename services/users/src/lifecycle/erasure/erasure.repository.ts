/**
 * Which (organization, uid) pairs were erased, by a hash of the pair (the uid itself is not kept):
 * lets a second erasure answer 200 with nothing left to do instead of 404.
 */
import { createHash } from 'node:crypto';
import type { Collection, DocumentStore } from '@wellstream/store';

export interface Erasure {
  _id: string;
  user_id: string;
  organization_id: string;
  customer_id: string;
  request_id: string;
  /** `request` (the operator's erasure) or `retention` (the sweep, once a deleted user's retention passed). */
  reason: 'request' | 'retention';
  erased_at: string;
}

export const ERASURES_COLLECTION = 'user_erasures';

export const erasureKey = (organizationId: string, uid: string) => createHash('sha256').update(`${organizationId}\u0000${uid}`).digest('hex');

export class ErasureRepository {
  private constructor(private readonly erasures: Collection<Erasure>) {}

  static async open(store: DocumentStore): Promise<ErasureRepository> {
    return new ErasureRepository(await store.collection<Erasure>({ name: ERASURES_COLLECTION }));
  }

  byKey = (key: string) => this.erasures.findOne({ _id: key });
  save = (erasure: Erasure) => this.erasures.bulkUpsert([erasure]);
}
