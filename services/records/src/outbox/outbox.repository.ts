/**
 * The transactional outbox, as a collection. The store has no transactions, so an entry moves
 * through states around the record write:
 *   prepared  — written BEFORE the records; not publishable yet
 *   ready     — the records it describes are stored; the relay may publish it
 *   (published entries are deleted: the collection holds the backlog, not the history, so the
 *   relay's scans stay as small as the backlog on every backend)
 * A `prepared` entry left by a crash is resolved by looking at the record it names: stored with
 * the same checksum → ready, otherwise dropped. So nothing is published that was not stored, and
 * nothing stored is left unpublished.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, DocumentStore } from '@wellstream/store';

/** `published` is only found in stores written by earlier versions (purged after a day). */
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
    const entries = await store.collection<OutboxEntry>({ name: 'outbox', backlog: true, indexes: [{ fields: { state: 1 } }, { fields: { batch_id: 1 } }] });
    return new OutboxRepository(entries);
  }

  /** Resolves to the ids of the entries written. */
  async prepare(batchId: string, messages: NewOutboxMessage[], now: Date, state: OutboxState = 'prepared'): Promise<string[]> {
    if (messages.length === 0) return [];
    const created_at = now.toISOString();
    const entries = messages.map((m) => ({ ...m, _id: outboxId(now.getTime()), batch_id: batchId, state, created_at, published_at: null }));
    await this.entries.bulkUpsert(entries);
    return entries.map((e) => e._id);
  }

  /** Resolves to how many of these (prepared) entries became ready. */
  markReady(ids: string[]): Promise<number> {
    return ids.length ? this.entries.updateMany({ _id: { $in: ids }, state: 'prepared' }, { $set: { state: 'ready' } }) : Promise.resolve(0);
  }

  ready(limit: number): Promise<OutboxEntry[]> {
    return this.entries.find({ state: 'ready' }, { sort: { _id: 1 }, limit });
  }

  preparedBefore(createdBefore: string, limit: number): Promise<OutboxEntry[]> {
    return this.entries.find({ state: 'prepared', created_at: { $lt: createdBefore } }, { sort: { _id: 1 }, limit });
  }

  /** Published entries leave the outbox. */
  async markPublished(ids: string[]): Promise<void> {
    if (ids.length) await this.entries.deleteMany({ _id: { $in: ids } });
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
