/**
 * Streams over the DocumentStore port. Name uniqueness and the 5-per-customer limit are unique
 * indexes ((customer, name) and (customer, slot)), so concurrent creates cannot break either rule,
 * on SQLite or MongoDB alike. A deleted stream is removed (it can never be restored), which frees
 * its name and its slot.
 */
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';
import { MAX_STREAMS_PER_CUSTOMER, StreamDoc } from './stream';
import { streamNameTaken, tooManyStreams } from './stream.errors';

export class StreamRepository {
  private constructor(private readonly streams: Collection<StreamDoc>) {}

  static async open(store: DocumentStore): Promise<StreamRepository> {
    const streams = await store.collection<StreamDoc>({
      name: 'streams',
      indexes: [
        { fields: { customer_id: 1, name: 1 }, unique: true },
        { fields: { customer_id: 1, slot: 1 }, unique: true },
        // A customer's streams, newest first.
        { fields: { customer_id: 1, created_at: -1, _id: -1 } },
      ],
    });
    return new StreamRepository(streams);
  }

  /** Inserts into a free slot; throws 422 when the name is taken or every slot is used. */
  async insert(doc: Omit<StreamDoc, 'slot'>): Promise<StreamDoc> {
    for (let attempt = 0; attempt < MAX_STREAMS_PER_CUSTOMER * 2; attempt++) {
      const existing = await this.listOfCustomer(doc.customer_id);
      if (existing.some((s) => s.name === doc.name)) throw streamNameTaken(doc.name);
      const used = new Set(existing.map((s) => s.slot));
      const slot = [...Array(MAX_STREAMS_PER_CUSTOMER).keys()].find((s) => !used.has(s));
      if (slot === undefined) throw tooManyStreams(MAX_STREAMS_PER_CUSTOMER);
      const full: StreamDoc = { ...doc, slot };
      try {
        await this.streams.insertOne(full);
        return full;
      } catch (err) {
        // A concurrent create took the name or the slot: look again.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    throw tooManyStreams(MAX_STREAMS_PER_CUSTOMER);
  }

  findOfCustomer(customerId: string, id: string): Promise<StreamDoc | null> {
    return this.streams.findOne({ _id: id, customer_id: customerId });
  }

  /** At most MAX_STREAMS_PER_CUSTOMER documents, so callers may filter and page in memory. */
  listOfCustomer(customerId: string): Promise<StreamDoc[]> {
    return this.streams.find({ customer_id: customerId }, { sort: { created_at: -1, _id: -1 } });
  }

  async rename(customerId: string, id: string, name: string, now: string): Promise<StreamDoc | null> {
    try {
      return await this.streams.findOneAndUpdate({ _id: id, customer_id: customerId }, { $set: { name, updated_at: now } });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw streamNameTaken(name);
      throw err;
    }
  }

  async remove(customerId: string, id: string): Promise<boolean> {
    return (await this.streams.deleteMany({ _id: id, customer_id: customerId })) > 0;
  }
}
