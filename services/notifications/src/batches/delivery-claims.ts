/**
 * The claims a replica takes to send one try of a batch, each an insert of one small document
 * (libs/store claims.ts: FerretDB runs a conditional update as a read and then a write, so two
 * replicas could both win one). The try's key is `<batch id>#<claims taken so far>`; its claim
 * documents are `<key>.<n>`, read and written only by `_id`. Of racing takers one insert lands.
 * A taker that died before marking the batch leaves its document until `until_ms`; the next taker
 * then inserts the following one. The documents live only while a claim is taken: the batch's own
 * counter of claims taken says from then on that the key is used (batch.repository.ts).
 */
import { Collection, DocumentStore, insertClaim } from '@wellstream/store';

interface DeliveryClaimDoc {
  _id: string;
  owner: string;
  until_ms: number;
}

/** More takers than this of one try died before marking the batch: something else is wrong. */
const MAX_CHAIN = 64;

export class DeliveryClaims {
  private constructor(private readonly docs: Collection<DeliveryClaimDoc>) {}

  static async open(store: DocumentStore): Promise<DeliveryClaims> {
    return new DeliveryClaims(await store.collection<DeliveryClaimDoc>({ name: 'notification_delivery_claims' }));
  }

  /** The ids of the key's documents when `owner` took it (to drop once the batch is marked), or null when another holds it. */
  async take(key: string, owner: string, now: number, ms: number): Promise<string[] | null> {
    const ids: string[] = [];
    for (let n = 0; n < MAX_CHAIN; n++) {
      const id = `${key}.${n}`;
      ids.push(id);
      const current = await this.docs.findOne({ _id: id });
      if (current && current.until_ms > now) return null;
      if (current) continue;
      return (await insertClaim(this.docs, { _id: id, owner, until_ms: now + ms })) ? ids : null;
    }
    throw new Error(`delivery claim ${key}: ${MAX_CHAIN} takers died before marking the batch`);
  }

  /** Removes a taken claim's documents: the batch now says its key is used. */
  async drop(ids: string[]): Promise<void> {
    await this.docs.deleteMany({ _id: { $in: ids } });
  }
}
