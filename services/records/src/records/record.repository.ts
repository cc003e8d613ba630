/**
 * The records collection over the DocumentStore port. Every hot query pins the user (a record's
 * id is derived from its user): ingestion looks records up by id within the user, the REST
 * endpoints by (user_id, type, start_time) with the local day as a filter. The user is the
 * partition key, so on a backend without usable indexes a query reads one user's records, not
 * everyone's.
 */
import type { ResourceType } from '@wellstream/catalog';
import type { Collection, CollectionSpec, DocumentStore, Filter, UpsertSet } from '@wellstream/store';
import type { RecordDoc } from './record';
import { addDays } from '@wellstream/clock';

export interface RecordQuery {
  userId: string;
  type: ResourceType;
  fromDate: string;
  toDate: string;
  sources?: string[];
}

export const RECORDS_COLLECTION = 'records';

/** The collection as every opener declares it (an opener that declared less would drop its index from the query guard's view). */
export const RECORDS_SPEC: CollectionSpec = {
  name: RECORDS_COLLECTION,
  // Serves the REST read in its order: a page continues from the last (start_time, _id) seen
  // by seeking in this index, however deep into the range it is.
  indexes: [{ fields: { user_id: 1, type: 1, start_time: 1, _id: 1 } }],
  partitionKey: 'user_id',
};

export class RecordRepository {
  private constructor(private readonly records: Collection<RecordDoc>) {}

  static async open(store: DocumentStore): Promise<RecordRepository> {
    const records = await store.collection<RecordDoc>(RECORDS_SPEC);
    return new RecordRepository(records);
  }

  /** Records by id; give the user whenever it is known (without it every partition is read). */
  byIds(ids: string[], userId?: string): Promise<RecordDoc[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.records.find(userId === undefined ? { _id: { $in: ids } } : { user_id: userId, _id: { $in: ids } });
  }

  byId(id: string): Promise<RecordDoc | null> {
    return this.records.findOne({ _id: id });
  }

  /** `stored`: ids of `docs` read just now (updates), a hint that lets the store replace them at once. */
  save(docs: RecordDoc[], stored?: string[]): Promise<void> {
    return docs.length ? this.records.bulkUpsert(docs, { stored }) : Promise.resolve();
  }

  /** `save` as a change the outbox can store in one transaction with its entries. */
  saving(docs: RecordDoc[], stored?: string[]): { sets: UpsertSet[]; apply: () => Promise<void> } {
    return { sets: [{ collection: RECORDS_COLLECTION, docs, stored }], apply: () => this.save(docs, stored) };
  }

  /**
   * Live (not deleted) records of one user and type whose local start day is in the range, in
   * pages of `pageSize`: a month of one-minute data is too much for one read.
   */
  findPages(q: RecordQuery, pageSize: number): AsyncIterable<RecordDoc[]> {
    return this.records.findPages(rangeFilter(q), { sort: { start_time: 1, _id: 1 }, pageSize });
  }
}

function rangeFilter(q: RecordQuery): Filter {
  const filter: Filter = {
    user_id: q.userId,
    type: q.type,
    // A local day lies within a day of its UTC start, whatever the offset: these bounds let the
    // (user, type, start_time) index narrow the scan; local_date then decides exactly.
    start_time: { $gte: addDays(q.fromDate, -2), $lt: addDays(q.toDate, 3) },
    local_date: { $gte: q.fromDate, $lte: q.toDate },
    deleted_at: null,
  };
  if (q.sources) filter.source_type = { $in: q.sources };
  return filter;
}
