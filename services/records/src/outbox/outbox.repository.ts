/**
 * The transactional outbox, as a collection. The store has no transactions, so an entry moves
 * through states around the record write:
 *   prepared  — written BEFORE the records; not publishable yet
 *   ready     — the records it describes are stored; the relay may publish it
 *   published — on the log (kept a day for diagnosis, then removed)
 * A `prepared` entry left by a crash is resolved by looking at the record it names: stored with
 * the same checksum → ready, otherwise dropped. So nothing is published that was not stored, and
 * nothing stored is left unpublished.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, DocumentStore } from '@wellstream/store';

export type OutboxState = 'prepared' | 'ready' | 'published';

export interface OutboxEntry {
  /** Time-ordered, so the relay publishes in write order. */
  _id: string;
  batch_id: string;
  state: OutboxState;
  topic: string;
  key: string;
  partition_key: string;
  /** Tenant-scoped topics: whose slice the event also goes to. */
  tenant?: string;
  /** The validated event as JSON text. */
  value: string;
  /** The record whose storage makes this entry publishable, and the version it must have. */
  record_id: string;
  checksum: string;
  created_at: string;
  published_at: string | null;
}

export type NewOutboxMessage = Pick<OutboxEntry, 'topic' | 'key' | 'partition_key' | 'tenant' | 'value' | 'record_id' | 'checksum'>;

let counter = 0;
/** Sortable: millisecond time, then a per-process counter, then randomness across processes. */
export function outboxId(now = Date.now()): string {
  counter = (counter + 1) % 1e9;
  return `${String(now).padStart(15, '0')}-${String(counter).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;
}

export class OutboxRepository {
  private constructor(private readonly entries: Collection<OutboxEntry>) {}

  static async open(store: DocumentStore): Promise<OutboxRepository> {
    const entries = await store.collection<OutboxEntry>({ name: 'outbox', indexes: [{ fields: { state: 1 } }, { fields: { batch_id: 1 } }] });
    return new OutboxRepository(entries);
  }

  async prepare(batchId: string, messages: NewOutboxMessage[], now: Date, state: OutboxState = 'prepared'): Promise<void> {
    if (messages.length === 0) return;
    const created_at = now.toISOString();
    await this.entries.bulkUpsert(messages.map((m) => ({ ...m, _id: outboxId(now.getTime()), batch_id: batchId, state, created_at, published_at: null })));
  }

  /** Resolves to how many entries of the batch became ready. */
  markReady(batchId: string): Promise<number> {
    return this.entries.updateMany({ batch_id: batchId, state: 'prepared' }, { $set: { state: 'ready' } });
  }

  ready(limit: number): Promise<OutboxEntry[]> {
    return this.entries.find({ state: 'ready' }, { sort: { _id: 1 }, limit });
  }

  preparedBefore(createdBefore: string, limit: number): Promise<OutboxEntry[]> {
    return this.entries.find({ state: 'prepared', created_at: { $lt: createdBefore } }, { sort: { _id: 1 }, limit });
  }

  async markPublished(ids: string[], at: Date): Promise<void> {
    if (ids.length) await this.entries.updateMany({ _id: { $in: ids } }, { $set: { state: 'published', published_at: at.toISOString() } });
  }

  async setReady(ids: string[]): Promise<void> {
    if (ids.length) await this.entries.updateMany({ _id: { $in: ids }, state: 'prepared' }, { $set: { state: 'ready' } });
  }

  async drop(ids: string[]): Promise<void> {
    if (ids.length) await this.entries.deleteMany({ _id: { $in: ids } });
  }

  async purgePublished(before: Date): Promise<number> {
    return this.entries.deleteMany({ state: 'published', published_at: { $lt: before.toISOString() } });
  }

  count(state: OutboxState): Promise<number> {
    return this.entries.count({ state });
  }
}
