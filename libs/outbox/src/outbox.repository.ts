/**
 * The outbox collection over the DocumentStore port (the service's own database, so the entries
 * live next to the state they announce).
 */
import { randomUUID } from 'node:crypto';
import { Collection, DocumentStore, Leases, Update, UpsertSet } from '@wellstream/store';
import { OutboxEntry, PendingMessage, StateCheck, toEntries, toListedEntries } from './outbox-entry';

export const OUTBOX_COLLECTION = 'outbox';
/** One document: which relay may publish the outbox now (replicas of a service share the outbox). */
const RELAY_LEASE_COLLECTION = 'outbox_relay';
const LEASE_KEY = 'relay';
/** A prepared entry becoming ready: its derived documents are written by then, so it keeps none. */
const MAKE_READY: Update = { $set: { state: 'ready' }, $unset: { derived: true } };

export class OutboxRepository {
  private readonly checked = new Map<string, Promise<Collection<{ _id: string }>>>();

  private constructor(
    private readonly entries: Collection<OutboxEntry>,
    private readonly store: DocumentStore,
    private readonly lease: Leases,
  ) {}

  static async open(store: DocumentStore): Promise<OutboxRepository> {
    // Entries leave once published: the collection is a backlog, so scanning it costs what waits.
    const entries = await store.collection<OutboxEntry>({ name: OUTBOX_COLLECTION, backlog: true, indexes: [{ fields: { batch_id: 1 } }] });
    // Published entries of the earlier records outbox were kept a day; this outbox keeps none.
    await entries.deleteMany({ state: 'published' });
    return new OutboxRepository(entries, store, await Leases.open(store, RELAY_LEASE_COLLECTION));
  }

  /**
   * True when `holder` may publish now: the lease was free (or its holder's time had run out) and
   * is now its own until `now + ms`. Two relays reading the same head would each publish it
   * (duplicates, and a duplicate of an older version after a newer one). Taken by inserting a
   * document (libs/store claims.ts): FerretDB runs a conditional update as a read and then a write.
   */
  takeRelay(holder: string, now: number, ms: number): Promise<boolean> {
    return this.lease.take(LEASE_KEY, holder, now, ms);
  }

  releaseRelay(holder: string): Promise<void> {
    return this.lease.release(LEASE_KEY, holder);
  }

  /**
   * The change's documents and their entries, ready, in one transaction; resolves to the entries'
   * batch id, or undefined when the store cannot do that (the caller then takes the prepared/ready steps).
   */
  async addWithDocuments(messages: PendingMessage[], sets: UpsertSet[], now: Date): Promise<string | undefined> {
    if (!this.store.upsertAtomically) return undefined;
    const batchId = randomUUID();
    // Ids are taken in the same synchronous stretch as the commit, so id order is commit order.
    await this.store.upsertAtomically([...sets, { collection: OUTBOX_COLLECTION, docs: toListedEntries(messages, batchId, now) }]);
    return batchId;
  }

  /** Whether any entry of the batch still waits to be published (an indexed count on a backlog). */
  async holds(batchId: string): Promise<boolean> {
    return (await this.entries.count({ batch_id: batchId })) > 0;
  }

  /** Resolves to the entries' ids (one entry unless the messages are large), and whether `derived` went with them. */
  async add(batchId: string, messages: PendingMessage[], state: OutboxEntry['state'], now: Date, derived: UpsertSet[] = []): Promise<{ ids: string[]; derivedKept: boolean }> {
    if (!messages.length) return { ids: [], derivedKept: derived.length === 0 };
    const { entries, derivedKept } = toEntries(messages, batchId, state, now, derived);
    await this.entries.bulkUpsert(entries);
    return { ids: entries.map((e) => e._id), derivedKept };
  }

  /** Replaces the documents of each set by _id, in the collection as its owner opened it. */
  async writeDerived(sets: UpsertSet[]): Promise<void> {
    await Promise.all(
      sets.filter((set) => set.docs.length > 0).map(async (set) => (await this.opened(set.collection)).bulkUpsert(set.docs, { stored: set.stored })),
    );
  }

  /** Replaces entries whole (a crashed writer's batch cut down to what it stored). */
  async replace(entries: OutboxEntry[]): Promise<void> {
    if (entries.length) await this.entries.bulkUpsert(entries);
  }

  async removeBatch(batchId: string): Promise<void> {
    await this.entries.deleteMany({ batch_id: batchId });
  }

  /** Resolves to how many of these prepared entries became ready (by `_id`: a keyed write on every backend); their derived documents are written by then. */
  markReady(ids: string[]): Promise<number> {
    if (!ids.length) return Promise.resolve(0);
    return this.entries.updateMany({ _id: { $in: ids }, state: 'prepared' }, MAKE_READY);
  }

  /** `markReady` for a batch whose entries' ids are not at hand (settling a failed write). */
  markBatchReady(batchId: string): Promise<number> {
    return this.entries.updateMany({ batch_id: batchId, state: 'prepared' }, MAKE_READY);
  }

  /** The oldest entries, whatever their state (the relay publishes only a leading run of ready ones). */
  oldest(limit: number): Promise<OutboxEntry[]> {
    return this.entries.find({}, { sort: { _id: 1 }, limit });
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.entries.deleteMany({ _id: { $in: ids } });
  }

  count(): Promise<number> {
    return this.entries.count({});
  }

  /** Whether the state change a message announces is stored. */
  async confirmed(check: StateCheck): Promise<boolean> {
    return (await (await this.opened(check.collection)).count(check.filter)) > 0;
  }

  /** A collection of this store by name, as its owner opened it (the store keeps the layout it was first opened with). */
  private async opened(name: string): Promise<Collection<{ _id: string }>> {
    let opening = this.checked.get(name);
    if (!opening) this.checked.set(name, (opening = this.store.collection<{ _id: string }>({ name })));
    return opening.catch((err) => {
      this.checked.delete(name);
      throw err;
    });
  }
}
