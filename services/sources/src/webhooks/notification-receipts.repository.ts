/**
 * Deliveries of provider notifications already acted on, by the provider's own id for a delivery
 * (WHOOP's `trace_id`), so a retry or repeat of one is dropped by whichever replica receives it. A
 * backlog: each receipt leaves once the adapter would refuse its delivery anyway (its signature
 * too old), so the collection holds at most the deliveries of that window.
 *
 * A receipt is written after the delivery's work is queued, never before: a crash in between makes
 * the provider's retry act again (a second fetch of the same object), never lose the notification.
 * Two copies arriving at once may both be acted on, for the same reason; a fetch is idempotent.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';

export interface NotificationReceipt {
  /** `<source type>:<delivery id>` */
  _id: string;
  expires_at: string;
}

const key = (sourceType: string, deliveryId: string) => `${sourceType}:${deliveryId}`;

export class NotificationReceipts {
  private constructor(private readonly receipts: Collection<NotificationReceipt>) {}

  static async open(store: DocumentStore): Promise<NotificationReceipts> {
    return new NotificationReceipts(await store.collection<NotificationReceipt>({ name: 'notification_receipts', backlog: true, indexes: [{ fields: { expires_at: 1 } }] }));
  }

  async seen(sourceType: string, deliveryId: string, now: Date): Promise<boolean> {
    const receipt = await this.receipts.findOne({ _id: key(sourceType, deliveryId) });
    return receipt !== null && receipt.expires_at >= now.toISOString();
  }

  async remember(sourceType: string, deliveryId: string, expiresAt: Date): Promise<void> {
    try {
      await this.receipts.insertOne({ _id: key(sourceType, deliveryId), expires_at: expiresAt.toISOString() });
    } catch (err) {
      // Another replica took a copy of the same delivery at the same moment: already remembered.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  sweepExpired(now: Date): Promise<number> {
    return this.receipts.deleteMany({ expires_at: { $lt: now.toISOString() } });
  }
}
