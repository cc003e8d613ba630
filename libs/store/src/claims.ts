/**
 * Claims and leases between processes that share a store, taken only by inserting a document.
 * An insert under a unique `_id` is the one write every backend makes atomic across processes:
 * FerretDB runs a conditional update (findOneAndUpdate, updateMany or deleteMany with a filter on
 * the current holder or state) as a read and then a write, so two processes can both "win" one.
 *
 * A lease is a sequence of documents `<key>#<generation>`: the highest one says who holds it, until
 * when, or that it was given back. Taking it reads that document and, when it is free, inserts the
 * next generation; of two takers only one insert lands. Giving it back inserts the next generation
 * too (marked released), so no document is ever changed in place by two writers.
 */
import type { Collection, CollectionSpec, DocumentStore } from './document-store.port';
import { DuplicateKeyError } from './document-store.port';

/** Inserts `doc`; true when it landed, false when a document with its `_id` was there first. */
export async function insertClaim<T extends { _id: string }>(collection: Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}

interface LeaseDoc {
  _id: string;
  key: string;
  gen: number;
  holder: string;
  until_ms: number;
  released: boolean;
}

/**
 * Generations older than the current one are never read; a take removes them about every this many
 * (at a generation of remainder 0 or 1: a release takes one number, so takes may all be odd).
 */
const PRUNE_EVERY = 32;

export class Leases {
  /** The generation each (key, holder) took last, to give it back. */
  private readonly held = new Map<string, number>();

  private constructor(private readonly docs: Collection<LeaseDoc>) {}

  /**
   * The lease collection's spec: its one query (a key's highest generation) has its index, and
   * each key is a partition (its `_id` names it), which FerretDB v1 reads without a table scan.
   */
  static spec(name: string): CollectionSpec {
    return { name, indexes: [{ fields: { key: 1, gen: -1 } }], partitionKey: 'key' };
  }

  static async open(store: DocumentStore, name: string): Promise<Leases> {
    return new Leases(await store.collection<LeaseDoc>(Leases.spec(name)));
  }

  /**
   * True when `holder` now holds `key` until `now + ms`: it was free, given back, or its holder's
   * time had run out (a holder that crashed or hung). Of any number of racing takers, at most one
   * gets true.
   */
  async take(key: string, holder: string, now: number, ms: number): Promise<boolean> {
    const current = await this.docs.findOne({ key }, { sort: { gen: -1 } });
    if (current && !current.released && current.until_ms > now) return false;
    const gen = (current?.gen ?? 0) + 1;
    if (!(await insertClaim(this.docs, { _id: `${key}#${gen}`, key, gen, holder, until_ms: now + ms, released: false }))) return false;
    this.held.set(`${key}\n${holder}`, gen);
    if (gen % PRUNE_EVERY <= 1 && gen > 1) await this.docs.deleteMany({ key, gen: { $lt: gen } });
    return true;
  }

  /** Removes every document of `key` (its subject is gone). */
  async forget(key: string): Promise<void> {
    await this.docs.deleteMany({ key });
  }

  /** Gives `key` back if `holder` still holds it (a lease taken over meanwhile is left alone). */
  async release(key: string, holder: string): Promise<void> {
    const id = `${key}\n${holder}`;
    const gen = this.held.get(id);
    if (gen === undefined) return;
    this.held.delete(id);
    // Lost to a taker of an expired lease: that generation is theirs, and so is the lease.
    await insertClaim(this.docs, { _id: `${key}#${gen + 1}`, key, gen: gen + 1, holder, until_ms: 0, released: true });
  }
}
