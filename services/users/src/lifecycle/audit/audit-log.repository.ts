/**
 * The audit log the users service keeps for the operator: every `audit-log` entry any service
 * wrote (exports, erasures, retention sweeps), newest first. Entries are stored under their own id,
 * so an entry delivered twice is kept once. Reads pin the customer or the action (indexed).
 */
import type { AuditEntry } from '@wellstream/contracts';
import type { Collection, DocumentStore, Filter } from '@wellstream/store';

export type StoredAuditEntry = Omit<AuditEntry, 'type'> & { _id: string };

export interface AuditQuery {
  customerId?: string;
  action?: string;
  offset: number;
  limit: number;
}

export class AuditLogRepository {
  private constructor(private readonly entries: Collection<StoredAuditEntry>) {}

  static async open(store: DocumentStore): Promise<AuditLogRepository> {
    return new AuditLogRepository(
      await store.collection<StoredAuditEntry>({
        name: 'audit_log',
        indexes: [{ fields: { at: -1, _id: -1 } }, { fields: { customer_id: 1, at: -1, _id: -1 } }, { fields: { action: 1, at: -1, _id: -1 } }, { fields: { user_id: 1 } }],
      }),
    );
  }

  async keep(entry: AuditEntry): Promise<void> {
    const { type: _type, ...rest } = entry;
    await this.entries.bulkUpsert([{ _id: entry.id, ...rest }]);
  }

  async list(q: AuditQuery): Promise<{ entries: StoredAuditEntry[]; total: number }> {
    const filter: Filter = {};
    if (q.customerId) filter.customer_id = q.customerId;
    if (q.action) filter.action = q.action;
    const [entries, total] = await Promise.all([this.entries.find(filter, { sort: { at: -1, _id: -1 }, skip: q.offset, limit: q.limit }), this.entries.count(filter)]);
    return { entries, total };
  }

  /** Erasure: the entries keep what was done, but no longer the user's uid. */
  forgetUid(userId: string): Promise<number> {
    return this.entries.updateMany({ user_id: userId, uid: { $ne: null } }, { $set: { uid: null } });
  }
}
